import { hostedPageUrl, type HostedPage } from '../../../../shared/domain/hosted-pages';
import { LinkButton } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { QueryView } from '../../components/QueryView';
import { QUERY_RULES } from '../../lib/query-client';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const PAGE_TITLES: Record<HostedPage, string> = {
  login: 'Sign in',
  registration: 'Sign up',
  recovery: 'Account recovery',
  verification: 'Email verification',
  settings: 'Account settings',
  error: 'Error',
  consent: 'OAuth2 consent',
};

/**
 * The pages an end user opens on their own, each framed in its preview form (a fresh flow that submits
 * nothing: a frame from the console's site gets none of the flow's cookies). Settings needs a signed-in user,
 * consent and error a request: those are linked, not framed.
 */
const PREVIEWED: readonly HostedPage[] = ['login', 'registration', 'recovery', 'verification'];
const LINKED: readonly HostedPage[] = ['settings'];

/**
 * /projects/{project}/account-experience: the project's hosted pages, each shown live (the page itself, in a
 * frame, wearing the active theme) with its address to copy and a link that opens it.
 */
export default function AccountExperiencePage() {
  const project = useProject();
  const endpoint = trpc.projects.endpoint.useQuery({ projectId: project.id }, QUERY_RULES.project);
  const branding = trpc.branding.get.useQuery({ projectId: project.id });
  return (
    <div className="page" data-testid="account-experience-page">
      <PageHeader
        title="Account experience"
        description="The pages your users sign in, sign up, recover and manage their account on, hosted by the project. Each one below is the live page, in the active theme."
        actions={
          <LinkButton href={ROUTES.theming.build({ project: project.id })} variant="secondary" data-testid="account-experience-theming">
            {branding.data ? `Theme: ${branding.data.default_theme.name}` : 'Theming'}
          </LinkButton>
        }
      />
      <QueryView query={endpoint} skeleton="card" errorTitle="The project's API endpoint could not be loaded">
        {({ apiUrl }) =>
          apiUrl ? (
            <div className="hosted-preview-grid">
              {PREVIEWED.map((page) => {
                const url = hostedPageUrl(apiUrl, page);
                return (
                  <Card key={page} title={PAGE_TITLES[page]} testId={`hosted-page-${page}`}>
                    <iframe className="hosted-preview-frame" src={`${url}?preview=true`} title={`Preview of the hosted ${PAGE_TITLES[page].toLowerCase()} page`} loading="lazy" data-testid={`hosted-frame-${page}`} />
                    <CopyValue value={url} label={`Copy the ${PAGE_TITLES[page].toLowerCase()} page URL`} testId={`hosted-url-${page}`} />
                    <a className="link" href={url} target="_blank" rel="noreferrer" data-testid={`hosted-open-${page}`}>
                      Open the {PAGE_TITLES[page].toLowerCase()} page
                    </a>
                  </Card>
                );
              })}
              {LINKED.map((page) => {
                const url = hostedPageUrl(apiUrl, page);
                return (
                  <Card key={page} title={PAGE_TITLES[page]} testId={`hosted-page-${page}`}>
                    <p className="hint">Shown to a signed-in user only, so there is no preview of it here.</p>
                    <CopyValue value={url} label={`Copy the ${PAGE_TITLES[page].toLowerCase()} page URL`} testId={`hosted-url-${page}`} />
                    <a className="link" href={url} target="_blank" rel="noreferrer" data-testid={`hosted-open-${page}`}>
                      Open the {PAGE_TITLES[page].toLowerCase()} page
                    </a>
                  </Card>
                );
              })}
            </div>
          ) : (
            <p>This deployment has no project API configured, so the project hosts no pages here.</p>
          )
        }
      </QueryView>
    </div>
  );
}

import { hostedPageUrl } from '../../../../shared/domain/hosted-pages';
import { oauth2Endpoints } from '../../../../shared/domain/oauth2-endpoints';
import { Card, PageHeader } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { QueryView } from '../../components/QueryView';
import { QUERY_RULES } from '../../lib/query-client';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

/** /projects/{project}/oauth/endpoints: every endpoint of the project's OAuth2 server, with copy buttons. */
export default function OAuth2EndpointsPage() {
  const project = useProject();
  const endpoint = trpc.projects.endpoint.useQuery({ projectId: project.id }, QUERY_RULES.project);
  return (
    <div className="page" data-testid="oauth2-endpoints-page">
      <PageHeader title="Endpoints" description="Where this project's OAuth2 and OpenID Connect server answers. Most libraries need only the issuer." />
      <Card>
        <QueryView query={endpoint} errorTitle="The project's API endpoint could not be loaded">
          {({ apiUrl }) =>
            apiUrl ? (
              <dl className="endpoint-list" data-testid="oauth2-endpoints">
                {oauth2Endpoints(apiUrl).map((e) => (
                  <div key={e.id} className="endpoint-row">
                    <dt>{e.label}</dt>
                    <dd>
                      <CopyValue value={e.url} label={`Copy the ${e.label.toLowerCase()} URL`} testId={`oauth2-endpoint-${e.id}`} />
                      <p className="hint">{e.description}</p>
                    </dd>
                  </div>
                ))}
              </dl>
            ) : (
              <p>This deployment has no project API configured, so the project has no OAuth2 endpoints here.</p>
            )
          }
        </QueryView>
      </Card>
      {endpoint.data?.apiUrl ? (
        <Card title="Hosted login and consent" testId="oauth2-hosted-pages">
          <p className="hint">
            Unless the URLs page names pages of your own, an authorization request sends the user to these pages of the project, which sign
            them in (or up) and ask for consent.
          </p>
          <dl className="endpoint-list">
            {(['login', 'consent'] as const).map((page) => (
              <div key={page} className="endpoint-row">
                <dt>{page === 'login' ? 'Login page' : 'Consent page'}</dt>
                <dd>
                  <CopyValue value={hostedPageUrl(endpoint.data.apiUrl!, page)} label={`Copy the hosted ${page} page URL`} testId={`oauth2-hosted-${page}`} />
                  <p className="hint">
                    {page === 'login' ? (
                      <a className="link" href={hostedPageUrl(endpoint.data.apiUrl!, 'login')} target="_blank" rel="noreferrer" data-testid="oauth2-hosted-login-open">
                        Open the hosted login page
                      </a>
                    ) : (
                      'Shows the client and the scopes it asks for; allow or deny completes the authorization.'
                    )}
                  </p>
                </dd>
              </div>
            ))}
          </dl>
        </Card>
      ) : null}
    </div>
  );
}

import type { ReactNode } from 'react';
import { sdkSnippets } from '../../../../shared/domain/sdk-snippets';
import { LinkButton } from '../../components/Button';
import { Checklist, ChecklistProgress, type ChecklistStep } from '../../components/Checklist';
import { Card, PageHeader } from '../../components/Card';
import { CopyButton, CopyValue } from '../../components/CopyButton';
import { QueryView } from '../../components/QueryView';
import { Skeleton } from '../../components/Skeleton';
import { Tabs } from '../../components/Tabs';
import { Truncate } from '../../components/Truncate';
import { VerificationBanner } from '../../components/VerificationBanner';
import { ROUTES } from '../../routes';
import { QUERY_RULES } from '../../lib/query-client';
import type { ProjectProgress } from '../../../../shared/schemas/project';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { formatDate } from '../../../../shared/domain/format';
import { hostedPageUrl } from '../../../../shared/domain/hosted-pages';
import { EnvironmentBadge } from './ProjectTable';

function Detail({ label, value, testId }: { label: string; value: ReactNode; testId: string }) {
  return (
    <div className="detail">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

function Snippet({ code, language }: { code: string; language: string }) {
  return (
    <div className="code-wrap">
      <pre className="code-block" tabIndex={0} aria-label={`${language} example`}>
        <code>{code}</code>
      </pre>
      <CopyButton value={code} label={`Copy the ${language} example`} testId={`copy-snippet-${language.toLowerCase()}`} />
    </div>
  );
}

function HostedLinks({ endpoint }: { endpoint: string }) {
  return (
    <span className="inline-links">
      <a className="link" href={hostedPageUrl(endpoint, 'login')} target="_blank" rel="noreferrer" data-testid="hosted-login-link">
        Sign in page
      </a>
      {' · '}
      <a className="link" href={hostedPageUrl(endpoint, 'registration')} target="_blank" rel="noreferrer" data-testid="hosted-registration-link">
        Sign up page
      </a>
    </span>
  );
}

function Connect({ endpoint }: { endpoint: string | null }) {
  if (!endpoint) {
    return (
      <p className="muted" data-testid="api-endpoint-missing">
        This console has no project API configured (PROJECT_API_URL), so there is no endpoint to connect to.
      </p>
    );
  }
  const snippets = sdkSnippets(endpoint);
  return (
    <>
      <dl className="details details-stacked">
        <Detail label="API endpoint" value={<CopyValue value={endpoint} label="Copy the API endpoint" testId="api-endpoint" />} testId="project-host" />
        <Detail label="Hosted sign-in" value={<HostedLinks endpoint={endpoint} />} testId="project-hosted-login" />
      </dl>
      <h3 className="section-title">Check who is signed in</h3>
      <Tabs
        label="SDK examples"
        testId="sdk-tabs"
        items={[
          { value: 'typescript', label: 'TypeScript', content: <Snippet code={snippets.typescript} language="TypeScript" /> },
          { value: 'go', label: 'Go', content: <Snippet code={snippets.go} language="Go" /> },
          { value: 'curl', label: 'curl', content: <Snippet code={snippets.curl} language="curl" /> },
        ]}
      />
    </>
  );
}

/**
 * While the endpoint loads: the loaded card's very layout, unseen, under the skeleton, so the cards
 * below stay where they are when the endpoint arrives (the snippets' height does not depend on it).
 */
function ConnectPlaceholder() {
  return (
    <div className="connect-placeholder" aria-busy="true">
      <div className="connect-placeholder-layout" aria-hidden="true" inert>
        <Connect endpoint="https://example.invalid" />
      </div>
      <Skeleton shape="card" />
    </div>
  );
}

/**
 * The steps from a new project to its first signed-in user, each checked off from the project's real state
 * (projects.progress); shared with the console's guided tour.
 */
export function projectSteps(projectId: string, apiUrl: string | null | undefined, progress: ProjectProgress | undefined): ChecklistStep[] {
  const p = { project: projectId };
  return [
    {
      id: 'identity',
      title: 'Create a first identity',
      text: 'Add a user by hand, import users, or let your first sign-up create one.',
      done: progress?.identity,
      target: { route: ROUTES.identities, href: ROUTES.identities.build(p) },
      action: 'Go to identities',
    },
    {
      id: 'sign-in',
      title: 'Sign in a first user',
      text: 'Sign up and sign in on the pages your project hosts for you.',
      done: progress?.signIn,
      target: apiUrl ? { external: hostedPageUrl(apiUrl, 'registration') } : { pending: 'Available once the project API endpoint is known' },
      action: 'Open the hosted sign-up page',
    },
    {
      id: 'oauth2-client',
      title: 'Register an OAuth2 client',
      text: 'Let an application sign its users in through your project with OAuth2 and OpenID Connect.',
      done: progress?.oauth2Client,
      target: { route: ROUTES.oauth, href: ROUTES.oauth.build(p) },
      action: 'Go to OAuth2 clients',
    },
    {
      id: 'teammate',
      title: 'Invite a teammate',
      text: 'Work on this project together.',
      done: progress?.teammate,
      target: { route: ROUTES.collaborators, href: ROUTES.collaborators.build(p) },
      action: 'Invite collaborators',
    },
  ];
}

/** The project's first-run guide: its API endpoint, hosted sign-in, SDK snippets and a checklist. */
export default function GetStartedPage() {
  const project = useProject();
  const p = { project: project.id };
  const endpoint = trpc.projects.endpoint.useQuery({ projectId: project.id }, QUERY_RULES.project);
  const revisionId = typeof project.current_revision.id === 'string' ? project.current_revision.id : undefined;
  const progress = trpc.projects.progress.useQuery({ projectId: project.id });
  const steps = projectSteps(project.id, endpoint.data?.apiUrl, progress.data);

  return (
    <div className="page" data-testid="get-started-page">
      <PageHeader
        title={project.current_revision.name}
        description="Your project is ready. Connect your application to its API endpoint to start signing users in."
        actions={
          <LinkButton href={ROUTES.projectSettings.build(p)} variant="secondary" data-testid="project-settings-link">
            Project settings
          </LinkButton>
        }
      />
      <VerificationBanner />
      <Card title="Connect your application" testId="project-connect">
        {endpoint.isPending ? (
          <ConnectPlaceholder />
        ) : (
          <QueryView query={endpoint} errorTitle="The project's API endpoint could not be loaded">
            {(data) => <Connect endpoint={data.apiUrl} />}
          </QueryView>
        )}
      </Card>
      <Card title="Next steps" testId="project-checklist">
        <ChecklistProgress steps={steps} label="Steps done in this project" />
        <Checklist steps={steps} />
      </Card>
      <Card title="Project details" testId="project-details">
        <dl className="details">
          <Detail label="Name" value={<Truncate text={project.current_revision.name} />} testId="project-name" />
          <Detail label="Slug" value={<CopyValue value={project.slug} label="Copy the project slug" testId="slug" />} testId="project-slug" />
          <Detail label="Environment" value={<EnvironmentBadge environment={project.environment} />} testId="project-environment" />
          <Detail label="Project ID" value={<CopyValue value={project.id} label="Copy the project ID" testId="id" />} testId="project-id" />
          <Detail
            label="Workspace ID"
            value={project.workspace_id ? <CopyValue value={project.workspace_id} label="Copy the workspace ID" testId="workspace-id" /> : '—'}
            testId="project-workspace-id"
          />
          <Detail label="Revision ID" value={revisionId ? <CopyValue value={revisionId} label="Copy the revision ID" testId="revision-id" /> : '—'} testId="project-revision-id" />
          <Detail label="Created" value={formatDate(project.created_at)} testId="project-created" />
        </dl>
      </Card>
    </div>
  );
}

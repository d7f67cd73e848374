import { Circle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { sdkSnippets } from '../../../../shared/domain/sdk-snippets';
import { LinkButton } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { CopyButton, CopyValue } from '../../components/CopyButton';
import { QueryView } from '../../components/QueryView';
import { Skeleton } from '../../components/Skeleton';
import { Tabs } from '../../components/Tabs';
import { Truncate } from '../../components/Truncate';
import { VerificationBanner } from '../../components/VerificationBanner';
import type { RouteDef } from '../../lib/route-def';
import { ROUTES } from '../../routes';
import { QUERY_RULES } from '../../lib/query-client';
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

interface Step {
  title: string;
  text: string;
  /** An app route (linked once its page exists), a page of the project's own (its hosted pages), or something the console does not offer yet. */
  target: { route: RouteDef; href: string } | { external: string } | { pending: string };
  action: string;
}

function ChecklistItem({ step }: { step: Step }) {
  let action: ReactNode;
  if ('pending' in step.target) {
    action = <span className="muted">{step.target.pending}</span>;
  } else if ('external' in step.target) {
    action = (
      <a className="link" href={step.target.external} target="_blank" rel="noreferrer">
        {step.action}
      </a>
    );
  } else if (step.target.route.available) {
    action = (
      <Link className="link" href={step.target.href}>
        {step.action}
      </Link>
    );
  } else {
    action = <span className="muted">Coming to the Console soon</span>;
  }
  return (
    <li data-testid="checklist-item">
      <Circle className="checklist-mark" size={18} aria-hidden="true" />
      <div>
        <span className="checklist-title">{step.title}</span>
        <p>{step.text}</p>
        {action}
      </div>
    </li>
  );
}

/** The project's first-run guide: its API endpoint, hosted sign-in, SDK snippets and a checklist. */
export default function GetStartedPage() {
  const project = useProject();
  const p = { project: project.id };
  const endpoint = trpc.projects.endpoint.useQuery({ projectId: project.id }, QUERY_RULES.project);
  const revisionId = typeof project.current_revision.id === 'string' ? project.current_revision.id : undefined;
  const steps: Step[] = [
    {
      title: 'Try the hosted sign-in',
      text: 'Sign up and sign in on the pages your project hosts for you.',
      target: endpoint.data?.apiUrl ? { external: hostedPageUrl(endpoint.data.apiUrl, 'registration') } : { pending: 'Available once the project API endpoint is known' },
      action: 'Open the hosted sign-up page',
    },
    { title: 'Create a first identity', text: 'Add a user by hand, or let your first sign-up create one.', target: { route: ROUTES.identities, href: ROUTES.identities.build(p) }, action: 'Go to identities' },
    { title: 'Invite a teammate', text: 'Work on this project together.', target: { route: ROUTES.collaborators, href: ROUTES.collaborators.build(p) }, action: 'Invite collaborators' },
  ];

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
        <ul className="checklist">
          {steps.map((step) => (
            <ChecklistItem key={step.title} step={step} />
          ))}
        </ul>
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

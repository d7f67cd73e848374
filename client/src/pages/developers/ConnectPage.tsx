import { CONNECT_FRAMEWORKS, connectSnippets, type ConnectSnippet } from '../../../../shared/domain/sdk-snippets';
import { hostedPageUrl } from '../../../../shared/domain/hosted-pages';
import { EXTERNAL_LINKS } from '../../../../shared/external-links';
import { Card, PageHeader } from '../../components/Card';
import { CopyButton, CopyValue } from '../../components/CopyButton';
import { QueryView } from '../../components/QueryView';
import { Tabs } from '../../components/Tabs';
import { QUERY_RULES } from '../../lib/query-client';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

function Code({ code, label, testId }: { code: string; label: string; testId: string }) {
  return (
    <div className="code-wrap">
      <pre className="code-block" tabIndex={0} aria-label={label} data-testid={testId}>
        <code>{code}</code>
      </pre>
      <CopyButton value={code} label={`Copy the ${label.toLowerCase()}`} testId={`${testId}-copy`} />
    </div>
  );
}

function FrameworkSteps({ id, label, snippet }: { id: string; label: string; snippet: ConnectSnippet }) {
  return (
    <div className="connect-steps" data-testid={`connect-${id}`}>
      <h3 className="section-title">1. Install the SDK</h3>
      {snippet.install ? (
        <Code code={snippet.install} label={`${label} install command`} testId={`connect-install-${id}`} />
      ) : (
        <p className="muted">Nothing to install: curl comes with most systems.</p>
      )}
      <h3 className="section-title">2. Call your project</h3>
      <Code code={snippet.code} label={`${label} example`} testId={`connect-snippet-${id}`} />
    </div>
  );
}

function Connect({ endpoint }: { endpoint: string }) {
  const snippets = connectSnippets(endpoint);
  return (
    <>
      <Card title="Your project's API" testId="connect-endpoint">
        <p className="muted">Every SDK call of your application goes to this base URL; the examples below already use it.</p>
        <dl className="details details-stacked">
          <div className="detail">
            <dt>Base URL</dt>
            <dd>
              <CopyValue value={endpoint} label="Copy the base URL" testId="connect-base-url" />
            </dd>
          </div>
          <div className="detail">
            <dt>Hosted sign-in</dt>
            <dd>
              <a className="link" href={hostedPageUrl(endpoint, 'login')} target="_blank" rel="noreferrer noopener" data-testid="connect-hosted-login">
                Sign in page<span className="sr-only"> (opens in a new tab)</span>
              </a>
            </dd>
          </div>
        </dl>
      </Card>
      <Card title="Connect your application" testId="connect-frameworks">
        <Tabs
          label="Framework"
          testId="connect-framework"
          items={CONNECT_FRAMEWORKS.map((f) => ({ value: f.id, label: f.label, content: <FrameworkSteps id={f.id} label={f.label} snippet={snippets[f.id]} /> }))}
        />
        <p className="muted">
          More guides, for other languages and for your own sign-in pages, are in the{' '}
          <a className="link link-inline" href={EXTERNAL_LINKS.docs} target="_blank" rel="noreferrer noopener">
            documentation<span className="sr-only"> (opens in a new tab)</span>
          </a>
          .
        </p>
      </Card>
    </>
  );
}

/** /projects/{project}/connect: the SDK to install, the project's base URL, and a first call per framework. */
export default function ConnectPage() {
  const project = useProject();
  const endpoint = trpc.projects.endpoint.useQuery({ projectId: project.id }, QUERY_RULES.project);
  return (
    <div className="page" data-testid="connect-page">
      <PageHeader title="Connect" description="Install an SDK, point it at your project's base URL, and start your first sign-in." />
      <QueryView query={endpoint} skeleton="card" errorTitle="The project's API endpoint could not be loaded">
        {(data) =>
          data.apiUrl ? (
            <Connect endpoint={data.apiUrl} />
          ) : (
            <Card title="Your project's API" testId="connect-endpoint">
              <p className="muted" data-testid="api-endpoint-missing">
                This console has no project API configured (PROJECT_API_URL), so there is no endpoint to connect to.
              </p>
            </Card>
          )
        }
      </QueryView>
    </div>
  );
}

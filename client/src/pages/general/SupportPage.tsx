import { ExternalLink, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { diagnosticReport } from '../../../../shared/domain/diagnostics';
import { EXTERNAL_LINKS, HELP_LINKS, type ExternalLinkId } from '../../../../shared/external-links';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { Skeleton } from '../../components/Skeleton';
import { recentFailures } from '../../lib/failed-requests';
import { QUERY_RULES } from '../../lib/query-client';
import { SUPPORT_EMAIL } from '../../shell/error-toast';
import { trpc } from '../../trpc';

const SUPPORT_LINKS: ReadonlyArray<{ id: ExternalLinkId; text: string }> = [
  { id: 'docs', text: 'Guides and the API reference.' },
  { id: 'status', text: 'Whether the service is up, and incidents under way.' },
  { id: 'contact', text: 'Write to the team; attach the diagnostic report below.' },
];

const labelOf = (id: ExternalLinkId) => HELP_LINKS.find((link) => link.id === id)?.label ?? id;

/** /support: where to get help, the console's version, and a diagnostic report to paste into a request. */
export default function SupportPage() {
  const version = trpc.system.version.useQuery(undefined, { staleTime: Infinity });
  const projects = trpc.projects.list.useQuery(undefined, QUERY_RULES.projectList);
  const active = trpc.projects.getActive.useQuery(undefined, QUERY_RULES.activeProject);
  const [now, setNow] = useState(() => new Date());

  const projectId = active.data?.projectId;
  const environment = projects.data?.find((p) => p.id === projectId)?.environment ?? null;
  const loading = version.isPending || active.isPending || projects.isPending;
  const report = diagnosticReport({
    userAgent: navigator.userAgent,
    consoleVersion: version.data?.version ?? null,
    project: projectId ? { id: projectId, environment } : null,
    now,
    failures: recentFailures(),
  });

  return (
    <div className="page" data-testid="support-page">
      <PageHeader title="Support" description="Find an answer, check the service status, or write to us with the details we need to help." />
      <Card title="Get help" testId="support-links">
        <ul className="support-links">
          {SUPPORT_LINKS.map(({ id, text }) => (
            <li key={id}>
              <a className="link" href={EXTERNAL_LINKS[id]} target="_blank" rel="noreferrer noopener" data-testid={`support-${id}`}>
                {labelOf(id)}
                <ExternalLink aria-hidden="true" size={14} />
                <span className="sr-only">(opens in a new tab)</span>
              </a>
              <p className="muted">{text}</p>
            </li>
          ))}
          <li>
            <a className="link" href={`mailto:${SUPPORT_EMAIL}`} data-testid="support-email">
              {SUPPORT_EMAIL}
            </a>
            <p className="muted">Or email us directly.</p>
          </li>
        </ul>
      </Card>
      <Card title="Console version" testId="support-version">
        {version.isPending ? (
          <Skeleton shape="details" />
        ) : (
          <p>
            <code data-testid="console-version">{version.data?.version ?? 'unknown'}</code>
            {version.isError && <span className="muted"> (the version could not be loaded)</span>}
          </p>
        )}
      </Card>
      <Card
        title="Diagnostic report"
        testId="support-diagnostics"
        actions={
          <Button variant="secondary" onClick={() => setNow(new Date())} data-testid="diagnostics-refresh">
            <RefreshCw aria-hidden="true" size={14} /> Refresh
          </Button>
        }
      >
        <p className="muted">
          Paste this into your support request. It names your browser, the Console version, the selected project and its environment, the time and the last failed requests; it holds no
          passwords, tokens, cookies or email addresses.
        </p>
        {loading ? (
          <Skeleton shape="card" />
        ) : (
          <div className="code-wrap">
            <pre className="code-block code-block-wrap" tabIndex={0} aria-label="Diagnostic report" data-testid="diagnostics-report">
              <code>{report}</code>
            </pre>
            <CopyButton value={report} label="Copy the diagnostic report" testId="diagnostics-copy" />
          </div>
        )}
      </Card>
    </div>
  );
}

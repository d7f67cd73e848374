import { useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { formatDateTime } from '../../../../shared/domain/format';
import type { AuditEvent } from '../../../../shared/schemas/audit-log';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { ChangeList } from '../../components/ChangeList';
import { Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { Select, TextField } from '../../components/TextField';
import { download } from '../../lib/download';
import { errorText } from '../../lib/errors';
import { usePagedList } from '../../lib/use-paged-list';
import { useUrlState } from '../../lib/use-url-state';
import { trpc } from '../../trpc';

const RANGES = { '24h': { label: 'Last 24 hours', ms: 86_400_000 }, '7d': { label: 'Last 7 days', ms: 7 * 86_400_000 }, '30d': { label: 'Last 30 days', ms: 30 * 86_400_000 }, all: { label: 'All time', ms: 0 } } as const;
type Range = keyof typeof RANGES;
const isRange = (r: string): r is Range => Object.hasOwn(RANGES, r);
const ACTION = /^[a-z0-9_]+(\.[a-z0-9_]+)*$/;

function actorOf(e: AuditEvent): string {
  if (e.actor.kind === 'project_api_key') return `Project API key ${e.actor.key_id ?? ''}`.trim();
  const who = e.actor.email ?? (e.actor.id ? 'A former member' : 'Unknown');
  return e.actor.kind === 'workspace_api_key' ? `${who} (workspace API key)` : who;
}

/** What one write changed: its object before and after, field by field (secrets show as ********). */
function EventChanges({ scope, eventId }: { scope: AuditScope; eventId: string }) {
  const detail = trpc.auditLog.get.useQuery({ ...scope, eventId });
  return (
    <section aria-label="Before and after">
      <h3>Before and after</h3>
      <QueryView
        query={detail}
        skeleton="table"
        errorTitle="The change could not be loaded"
        isEmpty={(d) => d.changes.length === 0}
        empty={{ title: 'No visible change', description: 'This write changed nothing shown here (a secret changes without showing its value).', testId: 'audit-changes-empty' }}
      >
        {(d) => (
          <>
            <ChangeList changes={d.changes} testId="audit-changes" itemTestId="audit-change" />
            {d.truncated && <p className="muted">Only the first {d.changes.length} changes are shown.</p>}
          </>
        )}
      </QueryView>
    </section>
  );
}

export type AuditScope = { workspaceId: string } | { projectId: string };

/**
 * The audit log of a workspace or a project: who did what (actor, action, target, time, outcome), newest
 * first, filtered by member, action, project (in a workspace) and time; filters and page in the URL.
 */
export function AuditLog({ scope }: { scope: AuditScope }) {
  const workspaceId = 'workspaceId' in scope ? scope.workspaceId : null;
  const [url, setUrl] = useUrlState(['actor', 'action', 'project', 'range'] as const);
  const { pageToken, firstPage, pager } = usePagedList();
  const range: Range = isRange(url.range) ? url.range : 'all';
  const [opened] = useState(() => Date.now());
  const from = RANGES[range].ms ? new Date(opened - RANGES[range].ms).toISOString() : undefined;
  const action = ACTION.test(url.action) ? url.action : '';
  const members = trpc.members.list.useQuery(scope);
  const projects = trpc.workspaces.listProjects.useQuery({ workspaceId: workspaceId ?? '' }, { enabled: workspaceId !== null });
  const projectName = (id: string | null) => (id ? (projects.data?.find((p) => p.id === id)?.name ?? id) : '—');
  const filters = {
    ...scope,
    ...(url.actor ? { actorId: url.actor } : {}),
    ...(action ? { action } : {}),
    ...(workspaceId && url.project ? { forProjectId: url.project } : {}),
    ...(from ? { from } : {}),
  };
  const list = trpc.auditLog.list.useQuery({ ...filters, ...(pageToken ? { pageToken } : {}) }, { placeholderData: (previous) => previous });
  const utils = trpc.useUtils();
  const [exporting, setExporting] = useState<'csv' | 'json' | null>(null);
  const [shown, setShown] = useState<AuditEvent | null>(null);
  const [draft, setDraft] = useState(url.action);
  useEffect(() => setDraft(url.action), [url.action]);
  const draftError = draft.trim() && !ACTION.test(draft.trim()) ? 'An action such as project.create, or the part before its dot, such as project' : undefined;
  const filtered = Boolean(url.actor || action || (workspaceId && url.project) || from);

  /** Downloads every event the applied filters select (all pages, not the one shown). */
  const exportAs = async (format: 'csv' | 'json') => {
    setExporting(format);
    try {
      const file = await utils.auditLog.export.fetch({ ...filters, format }, { staleTime: 0 });
      download(file.filename, file.content, file.contentType);
      if (file.truncated) toast(`More events match than one file holds: it has the newest ${file.count.toLocaleString('en')}. Narrow the filters for older ones.`);
    } catch (error) {
      toast.error(errorText(error) ?? 'The audit log could not be exported.');
    } finally {
      setExporting(null);
    }
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (draftError) return;
    setUrl({ action: draft.trim(), ...firstPage });
  };

  return (
    <Card testId="audit-log-card">
      <div className="filters">
        <Select
          label="Member"
          options={[{ value: '', label: 'Anyone' }, ...(members.data ?? []).map((m) => ({ value: m.id, label: m.email }))]}
          value={url.actor}
          onChange={(e) => setUrl({ actor: e.target.value, ...firstPage })}
          data-testid="audit-actor"
        />
        {workspaceId && (
          <Select
            label="Project"
            options={[{ value: '', label: 'Any project' }, ...(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
            value={url.project}
            onChange={(e) => setUrl({ project: e.target.value, ...firstPage })}
            data-testid="audit-project"
          />
        )}
        <Select
          label="Time"
          options={(Object.keys(RANGES) as Range[]).map((value) => ({ value, label: RANGES[value].label }))}
          value={range}
          onChange={(e) => setUrl({ range: e.target.value, ...firstPage })}
          data-testid="audit-range"
        />
      </div>
      <form className="filters" role="search" aria-label="Filter by action" onSubmit={apply}>
        <TextField label="Action" value={draft} maxLength={100} onChange={(e) => setDraft(e.target.value)} placeholder="project_api_key" error={draftError} data-testid="audit-action" />
        <Button type="submit" data-testid="audit-filter-apply">
          Filter
        </Button>
      </form>
      <div className="filters" role="group" aria-label="Export the events these filters select">
        <Button onClick={() => void exportAs('csv')} busy={exporting === 'csv'} disabled={exporting !== null} data-testid="audit-export-csv">
          {exporting === 'csv' ? 'Exporting…' : 'Export CSV'}
        </Button>
        <Button onClick={() => void exportAs('json')} busy={exporting === 'json'} disabled={exporting !== null} data-testid="audit-export-json">
          {exporting === 'json' ? 'Exporting…' : 'Export JSON'}
        </Button>
      </div>
      {list.data && (
        <p className="muted" data-testid="audit-retention">
          {list.data.retentionDays === null
            ? 'Your plan keeps this log without a time limit.'
            : `Your plan keeps the last ${list.data.retentionDays === 1 ? 'day' : `${list.data.retentionDays} days`} of this log; a higher plan keeps more.`}
        </p>
      )}
      <QueryView
        query={list}
        skeleton="table"
        errorTitle="The audit log could not be loaded"
        isEmpty={(answer) => answer.events.length === 0}
        empty={
          filtered
            ? { title: 'No event matches', description: 'Nothing recorded matches these filters. Clear a filter to see more.', testId: 'audit-no-match' }
            : { title: 'Nothing recorded yet', description: 'Change a configuration, invite a member or create an API key: each change is listed here.', testId: 'audit-empty' }
        }
      >
        {(answer) => (
          <>
            <Table
              caption="Audit log, newest first"
              testId="audit-table"
              rows={answer.events}
              rowKey={(e) => e.id}
              columns={[
                { key: 'at', header: 'When', render: (e) => formatDateTime(e.at) },
                { key: 'actor', header: 'Who', className: 'col-name', render: (e) => actorOf(e) },
                {
                  key: 'action',
                  header: 'Action',
                  render: (e) => (
                    <button type="button" className="link-button" onClick={() => setShown(e)} data-testid="audit-open">
                      <code>{e.action}</code>
                    </button>
                  ),
                },
                { key: 'target', header: 'Target', render: (e) => (e.target_id ? <code>{e.target_id}</code> : '—') },
                ...(workspaceId ? [{ key: 'project', header: 'Project', render: (e: AuditEvent) => projectName(e.project_id) }] : []),
                {
                  key: 'outcome',
                  header: 'Outcome',
                  render: (e) => (
                    <span className={`badge ${e.outcome === 'success' ? 'badge-prod' : 'badge-abandoned'}`} data-testid="audit-outcome">
                      {e.outcome === 'success' ? 'Succeeded' : `Failed (${e.status})`}
                    </span>
                  ),
                },
              ]}
            />
            {pager({ label: 'Audit log pages', nextToken: answer.nextPageToken, busy: list.isFetching && list.isPlaceholderData, testId: 'audit' })}
          </>
        )}
      </QueryView>
      <Dialog
        open={shown !== null}
        title={shown ? shown.action : 'Event'}
        onClose={() => setShown(null)}
        testId="audit-drawer"
        variant="drawer"
        footer={
          <Button variant="secondary" onClick={() => setShown(null)} data-testid="audit-drawer-close">
            Close
          </Button>
        }
      >
        {shown && (
          <dl className="detail">
            <dt>When</dt>
            <dd>{formatDateTime(shown.at)}</dd>
            <dt>Who</dt>
            <dd>{actorOf(shown)}</dd>
            <dt>What</dt>
            <dd>
              <code>{shown.target_type}</code> {shown.target_id ? <code>{shown.target_id}</code> : null}
            </dd>
            {workspaceId && (
              <>
                <dt>Project</dt>
                <dd>{projectName(shown.project_id)}</dd>
              </>
            )}
            <dt>Outcome</dt>
            <dd>{shown.outcome === 'success' ? `Succeeded (${shown.status})` : `Failed (${shown.status})`}</dd>
            <dt>Fields sent</dt>
            <dd data-testid="audit-fields">{shown.fields.length ? shown.fields.join(', ') : '—'}</dd>
          </dl>
        )}
        {shown?.has_changes && <EventChanges scope={scope} eventId={shown.id} />}
      </Dialog>
    </Card>
  );
}

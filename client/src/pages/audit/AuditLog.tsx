import { useEffect, useState, type FormEvent } from 'react';
import { formatDateTime } from '../../../../shared/domain/format';
import type { AuditEvent } from '../../../../shared/schemas/audit-log';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { Select, TextField } from '../../components/TextField';
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
  const list = trpc.auditLog.list.useQuery(
    {
      ...scope,
      ...(url.actor ? { actorId: url.actor } : {}),
      ...(action ? { action } : {}),
      ...(workspaceId && url.project ? { forProjectId: url.project } : {}),
      ...(from ? { from } : {}),
      ...(pageToken ? { pageToken } : {}),
    },
    { placeholderData: (previous) => previous },
  );
  const [shown, setShown] = useState<AuditEvent | null>(null);
  const [draft, setDraft] = useState(url.action);
  useEffect(() => setDraft(url.action), [url.action]);
  const draftError = draft.trim() && !ACTION.test(draft.trim()) ? 'An action such as project.create, or the part before its dot, such as project' : undefined;
  const filtered = Boolean(url.actor || action || (workspaceId && url.project) || from);

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
      </Dialog>
    </Card>
  );
}

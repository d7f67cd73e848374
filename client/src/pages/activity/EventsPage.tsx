import { useEffect, useState, type FormEvent } from 'react';
import { ACTIVITY_RANGES, EVENT_TYPES, isEventType, type ActivityRange } from '../../../../shared/domain/metrics';
import { formatDateTime } from '../../../../shared/domain/format';
import { attributeConditions, type ProjectEvent } from '../../../../shared/schemas/metrics';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { Select, TextField } from '../../components/TextField';
import { usePagedList } from '../../lib/use-paged-list';
import { useUrlState } from '../../lib/use-url-state';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { activityWindow } from './window';

const RANGE_OPTIONS = (Object.keys(ACTIVITY_RANGES) as ActivityRange[]).map((value) => ({ value, label: ACTIVITY_RANGES[value].label }));
const CONDITION_LABELS: Record<(typeof attributeConditions)[number], string> = {
  equals: 'equals',
  not_equals: 'does not equal',
  contains: 'contains',
  not_contains: 'does not contain',
  regex: 'matches the regex',
  not_regex: 'does not match the regex',
  set: 'is set',
  not_set: 'is not set',
};
type Condition = keyof typeof CONDITION_LABELS;
const isCondition = (c: string): c is Condition => Object.hasOwn(CONDITION_LABELS, c);
const needsValue = (c: Condition) => c !== 'set' && c !== 'not_set';
const typeLabel = (name: string) => (isEventType(name) ? EVENT_TYPES[name] : name);
const attribute = (e: ProjectEvent, key: string) => e.attributes.find((a) => a.key === key)?.value;

/** /projects/{project}/activity/events: every recorded event, newest first, filtered by type and one attribute; filters and page in the URL. */
export default function EventsPage() {
  const project = useProject();
  const [url, setUrl] = useUrlState(['range', 'type', 'attribute', 'condition', 'value'] as const);
  const { pageToken, firstPage, pager } = usePagedList();
  const range: ActivityRange = url.range in ACTIVITY_RANGES ? (url.range as ActivityRange) : '7d';
  const [opened] = useState(() => Date.now());
  const { from, to } = activityWindow(opened, range);
  const names = trpc.metrics.eventTypes.useQuery({ projectId: project.id });
  const condition: Condition = isCondition(url.condition) ? url.condition : 'equals';
  const filter = url.attribute && (!needsValue(condition) || url.value) ? [{ attribute: url.attribute, condition, ...(needsValue(condition) ? { value: url.value } : {}) }] : [];
  const list = trpc.metrics.events.useQuery(
    { projectId: project.id, from, to, pageSize: 25, ...(url.type ? { eventName: url.type } : {}), ...(filter.length ? { filters: filter } : {}), ...(pageToken ? { pageToken } : {}) },
    { placeholderData: (previous) => previous },
  );
  const [draft, setDraft] = useState({ attribute: url.attribute, condition, value: url.value });
  useEffect(() => setDraft({ attribute: url.attribute, condition, value: url.value }), [url.attribute, condition, url.value]);
  const [shown, setShown] = useState<ProjectEvent | null>(null);
  const filtered = Boolean(url.type || filter.length);

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setUrl({ attribute: draft.attribute, condition: draft.attribute ? draft.condition : '', value: draft.attribute && needsValue(draft.condition) ? draft.value.trim() : '', ...firstPage });
  };

  return (
    <div className="page" data-testid="activity-events-page">
      <PageHeader title="Events" description="Every sign-up, sign-in, token and permission check of this project, newest first, with its attributes." />
      <Card testId="events-card">
        <div className="filters">
          <Select label="Range" options={RANGE_OPTIONS} value={range} onChange={(e) => setUrl({ range: e.target.value, ...firstPage })} data-testid="events-range" />
          <Select
            label="Event type"
            options={[{ value: '', label: 'Any event' }, ...(names.data?.eventTypes ?? []).map((n) => ({ value: n, label: typeLabel(n) }))]}
            value={url.type}
            onChange={(e) => setUrl({ type: e.target.value, ...firstPage })}
            data-testid="events-type"
          />
        </div>
        <form className="filters" role="search" aria-label="Filter by attribute" onSubmit={apply}>
          <Select
            label="Attribute"
            options={[{ value: '', label: 'No attribute filter' }, ...(names.data?.attributes ?? []).map((n) => ({ value: n, label: n }))]}
            value={draft.attribute}
            onChange={(e) => setDraft({ ...draft, attribute: e.target.value })}
            data-testid="events-attribute"
          />
          <Select
            label="Condition"
            options={attributeConditions.map((c) => ({ value: c, label: CONDITION_LABELS[c] }))}
            value={draft.condition}
            onChange={(e) => setDraft({ ...draft, condition: e.target.value as Condition })}
            data-testid="events-condition"
          />
          {needsValue(draft.condition) && (
            <TextField label="Value" value={draft.value} maxLength={200} onChange={(e) => setDraft({ ...draft, value: e.target.value })} placeholder="password" data-testid="events-value" />
          )}
          <Button type="submit" data-testid="events-filter-apply">
            Filter
          </Button>
        </form>
        <QueryView
          query={list}
          skeleton="table"
          errorTitle="The events could not be loaded"
          isEmpty={(answer) => answer.events.length === 0}
          empty={
            filtered
              ? { title: 'No event matches', description: 'No event of this range has this type or attribute. Clear a filter to see more.', testId: 'events-no-match' }
              : { title: 'No events yet', description: 'Sign up or sign in on your project’s pages, issue an OAuth2 token or check a permission: each one is listed here.', testId: 'events-empty' }
          }
        >
          {(answer) => (
            <>
              <Table
                caption="Events"
                testId="events-table"
                rows={answer.events}
                rowKey={(e) => `${e.timestamp}-${attribute(e, 'session_id') ?? ''}-${e.name}-${e.attributes.map((a) => a.value).join('|')}`}
                columns={[
                  {
                    key: 'name',
                    header: 'Event',
                    className: 'col-name',
                    render: (e) => (
                      <button type="button" className="link-button" onClick={() => setShown(e)} data-testid="event-open">
                        {typeLabel(e.name)}
                      </button>
                    ),
                  },
                  { key: 'method', header: 'Method', render: (e) => attribute(e, 'method') ?? '—' },
                  { key: 'identity', header: 'Identity', render: (e) => <code>{attribute(e, 'identity_id') ?? '—'}</code> },
                  { key: 'time', header: 'Time', render: (e) => formatDateTime(e.timestamp) },
                ]}
              />
              {pager({ label: 'Event pages', nextToken: answer.nextPageToken, busy: list.isFetching && list.isPlaceholderData, testId: 'events' })}
            </>
          )}
        </QueryView>
      </Card>
      <Dialog
        open={shown !== null}
        title={shown ? typeLabel(shown.name) : 'Event'}
        onClose={() => setShown(null)}
        testId="event-drawer"
        variant="drawer"
        footer={
          <Button variant="secondary" onClick={() => setShown(null)} data-testid="event-drawer-close">
            Close
          </Button>
        }
      >
        {shown && (
          <dl className="detail">
            <dt>Type</dt>
            <dd>
              <code>{shown.name}</code>
            </dd>
            <dt>Time</dt>
            <dd>{formatDateTime(shown.timestamp)}</dd>
            {shown.attributes.map((a) => (
              <div key={a.key} data-testid={`event-attribute-${a.key}`}>
                <dt>{a.key}</dt>
                <dd>
                  <code>{a.value}</code>
                </dd>
              </div>
            ))}
          </dl>
        )}
      </Dialog>
    </div>
  );
}

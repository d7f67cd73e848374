import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import type { RelationshipView } from '../../../../shared/schemas/relationships';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { Select, TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { usePagedList } from '../../lib/use-paged-list';
import { useUrlState } from '../../lib/use-url-state';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { CheckDebugger } from './CheckDebugger';
import { relationshipSubjectText, subjectOfText, tupleText } from './relationship-text';

const FILTERS = ['namespace', 'object', 'relation', 'subject'] as const;

/** The list's filters from the URL, as the procedures take them. */
function queryOf(filters: Record<(typeof FILTERS)[number], string>) {
  const subject = subjectOfText(filters.subject);
  return {
    ...(filters.namespace ? { namespace: filters.namespace } : {}),
    ...(filters.object ? { object: filters.object } : {}),
    ...(filters.relation ? { relation: filters.relation } : {}),
    ...(subject ? ('id' in subject ? { subjectId: subject.id } : { subjectSet: subject.set }) : {}),
  };
}

function CreateRelationshipDialog({ projectId, open, onClose }: { projectId: string; open: boolean; onClose: () => void }) {
  const namespaces = trpc.relationships.namespaces.useQuery({ projectId }, { enabled: open });
  const [form, setForm] = useState({ namespace: '', object: '', relation: '', subject: '' });
  const create = trpc.relationships.create.useMutation({
    onSuccess: (created) => {
      toast.success(`Relationship ${tupleText(created)} created`);
      setForm({ namespace: '', object: '', relation: '', subject: '' });
      onClose();
    },
  });
  const list = namespaces.data?.namespaces ?? [];
  const relations = list.find((n) => n.name === form.namespace)?.relations.filter((r) => r.kind === 'relation') ?? [];
  const subject = subjectOfText(form.subject);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (subject) create.mutate({ projectId, namespace: form.namespace, object: form.object, relation: form.relation, subject });
  };
  return (
    <Dialog open={open} title="Create a relationship" onClose={() => (create.reset(), onClose())} testId="relationship-create-dialog">
      <form onSubmit={submit} className="form-grid">
        <Select
          label="Namespace"
          value={form.namespace}
          onChange={(e) => setForm({ ...form, namespace: e.target.value, relation: '' })}
          options={[{ value: '', label: list.length === 0 ? 'No namespaces: write rules first' : 'Choose a namespace' }, ...list.map((n) => ({ value: n.name, label: n.name }))]}
          required
          data-testid="relationship-namespace"
        />
        <TextField label="Object" value={form.object} onChange={(e) => setForm({ ...form, object: e.target.value })} required data-testid="relationship-object" />
        <Select
          label="Relation"
          value={form.relation}
          onChange={(e) => setForm({ ...form, relation: e.target.value })}
          options={[{ value: '', label: 'Choose a relation' }, ...relations.map((r) => ({ value: r.name, label: `${r.name} → ${r.types.join(' | ')}` }))]}
          required
          data-testid="relationship-relation"
        />
        <TextField
          label="Subject"
          hint="A subject id (such as a user id), or a subject set as namespace:object#relation"
          value={form.subject}
          onChange={(e) => setForm({ ...form, subject: e.target.value })}
          required
          data-testid="relationship-subject"
        />
        {create.error && (
          <p className="field-error" role="alert">
            {errorText(create.error) ?? 'The relationship could not be created.'}
          </p>
        )}
        <div className="form-actions">
          <Button type="submit" variant="primary" busy={create.isPending} disabled={!subject} data-testid="relationship-create-submit">
            Create relationship
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/**
 * /projects/{project}/permissions/relationships: the project's relationships, filtered by namespace, object,
 * relation and subject (kept in the URL) and paged; create, delete one, delete every match after confirming
 * their count; and the check debugger that explains an answer.
 */
export default function RelationshipsPage() {
  const project = useProject();
  const projectId = project.id;
  const [filters, setFilters] = useUrlState(FILTERS);
  const { pageToken, pager, firstPage } = usePagedList('relationshipPages');
  const query = queryOf(filters);
  const list = trpc.relationships.list.useQuery({ projectId, ...query, ...(pageToken ? { pageToken } : {}) }, { placeholderData: (p) => p });
  const [draft, setDraft] = useState(filters);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<RelationshipView | null>(null);
  const [deletingMatches, setDeletingMatches] = useState(false);
  const count = trpc.relationships.count.useQuery({ projectId, ...query, namespace: filters.namespace }, { enabled: deletingMatches && filters.namespace !== '' });
  const remove = trpc.relationships.delete.useMutation({
    onSuccess: () => {
      toast.success('Relationship deleted');
      setDeleting(null);
    },
  });
  const removeMatching = trpc.relationships.deleteMatching.useMutation({
    onSuccess: ({ deleted }) => {
      toast.success(`${deleted} relationship${deleted === 1 ? '' : 's'} deleted`);
      setDeletingMatches(false);
    },
  });
  const [highlight, setHighlight] = useState<string | null>(null);
  const showTuple = (tuple: RelationshipView) => {
    const subject = relationshipSubjectText(tuple);
    setFilters({ namespace: tuple.namespace, object: tuple.object, relation: tuple.relation, subject, ...firstPage });
    setDraft({ namespace: tuple.namespace, object: tuple.object, relation: tuple.relation, subject });
    setHighlight(tupleText(tuple));
  };
  const applyFilters = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ ...draft, ...firstPage });
  };
  const filtered = FILTERS.some((k) => filters[k] !== '');

  return (
    <div className="page" data-testid="relationships-page">
      <PageHeader
        title="Relationships"
        description="Who relates to what: the relation tuples permission checks are answered from."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)} data-testid="relationship-create">
            Create relationship
          </Button>
        }
      />
      <Card testId="relationships-card">
        <form onSubmit={applyFilters} className="filters" aria-label="Filter relationships">
          {FILTERS.map((key) => (
            <TextField
              key={key}
              label={key[0]!.toUpperCase() + key.slice(1)}
              value={draft[key]}
              onChange={(e) => setDraft({ ...draft, [key]: e.target.value })}
              data-testid={`relationships-filter-${key}`}
            />
          ))}
          <div className="form-actions">
            <Button type="submit" data-testid="relationships-filter-apply">
              Filter
            </Button>
            {filtered && (
              <Button
                variant="ghost"
                onClick={() => {
                  setDraft({ namespace: '', object: '', relation: '', subject: '' });
                  setFilters({ namespace: '', object: '', relation: '', subject: '', ...firstPage });
                }}
              >
                Clear filters
              </Button>
            )}
            <Button
              variant="danger"
              disabled={!filters.namespace}
              title={filters.namespace ? undefined : 'Filter by a namespace first'}
              onClick={() => setDeletingMatches(true)}
              data-testid="relationships-delete-matching"
            >
              Delete all matches
            </Button>
          </div>
        </form>
        <QueryView
          query={list}
          skeleton="table"
          errorTitle="The relationships could not be loaded"
          isEmpty={(answer) => answer.relationships.length === 0}
          empty={
            filtered
              ? { title: 'No relationships match', description: 'No relationship matches these filters.' }
              : {
                  title: 'No relationships yet',
                  description:
                    'A relationship says a subject relates to an object, such as “File:readme#viewers@ada”: ada is a viewer of the file readme. Permission checks are answered from relationships and the permission rules.',
                  action: (
                    <Button variant="primary" onClick={() => setCreating(true)}>
                      Create relationship
                    </Button>
                  ),
                }
          }
        >
          {(answer) => (
            <>
              <Table
                caption="Relationships"
                testId="relationships-table"
                rows={answer.relationships}
                rowKey={(r) => tupleText(r)}
                columns={[
                  { key: 'namespace', header: 'Namespace', render: (r) => r.namespace },
                  { key: 'object', header: 'Object', render: (r) => <code>{r.object}</code> },
                  { key: 'relation', header: 'Relation', render: (r) => r.relation },
                  {
                    key: 'subject',
                    header: 'Subject',
                    render: (r) => (
                      <code data-testid="relationship-subject-cell" className={highlight === tupleText(r) ? 'highlight' : undefined}>
                        {relationshipSubjectText(r)}
                      </code>
                    ),
                  },
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (r) => (
                      <Button variant="ghost" onClick={() => setDeleting(r)} data-testid="relationship-delete">
                        Delete
                      </Button>
                    ),
                  },
                ]}
              />
              {pager({ label: 'Relationship pages', nextToken: answer.nextPageToken, busy: list.isFetching && list.isPlaceholderData, testId: 'relationships' })}
            </>
          )}
        </QueryView>
      </Card>
      <CheckDebugger projectId={projectId} onTuple={showTuple} />
      <CreateRelationshipDialog projectId={projectId} open={creating} onClose={() => setCreating(false)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this relationship?"
        message={deleting ? `${tupleText(deleting)} is deleted; checks that relied on it change at once.` : ''}
        confirmLabel="Delete relationship"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'The relationship could not be deleted.') : undefined}
        onConfirm={() => {
          if (!deleting) return;
          const subject = deleting.subject_set ? { set: deleting.subject_set } : { id: deleting.subject_id ?? '' };
          remove.mutate({ projectId, namespace: deleting.namespace, object: deleting.object, relation: deleting.relation, subject });
        }}
        onClose={() => (setDeleting(null), remove.reset())}
        testId="relationship-delete-dialog"
      />
      <ConfirmDialog
        open={deletingMatches}
        title="Delete every matching relationship?"
        message={
          count.data
            ? count.data.count === 0
              ? 'No relationship matches the filters.'
              : `${count.data.capped ? 'At least ' : ''}${count.data.count} relationship${count.data.count === 1 ? '' : 's'} match the filters and will be deleted. Type the number to confirm.`
            : 'Counting the matching relationships…'
        }
        {...(count.data && count.data.count > 0 && !count.data.capped ? { confirmText: String(count.data.count) } : {})}
        confirmLabel="Delete all matches"
        busy={removeMatching.isPending || count.isFetching}
        error={removeMatching.error ? (errorText(removeMatching.error) ?? 'The relationships could not be deleted.') : undefined}
        onConfirm={() => {
          if (count.data && count.data.count > 0 && !count.data.capped) {
            removeMatching.mutate({ projectId, ...query, namespace: filters.namespace, expectedCount: count.data.count });
          }
        }}
        onClose={() => (setDeletingMatches(false), removeMatching.reset())}
        testId="relationships-delete-matching-dialog"
      />
    </div>
  );
}

import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { Link, useLocation } from 'wouter';
import { identityLabel, identityName } from '../../../../shared/domain/identity-display';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { Select, TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { formatCount, formatDate } from '../../../../shared/domain/format';
import { CreateIdentityDialog } from './CreateIdentityDialog';
import { ImportDialog } from './ImportDialog';
import { useDebounced } from '../../lib/use-debounced';
import { schemaNamer } from './schema-names';
import { usePagedList } from '../../lib/use-paged-list';
import { useUrlState } from '../../lib/use-url-state';


/** "1 identity", "1,204 identities": every identity of the project, whatever the search and filters. */
export const identityCount = (n: number) => formatCount(n, 'identity', 'identities');

/**
 * /projects/{project}/identities: the project's identities, searched by any part of an identifier, email,
 * name or id (so "@example.com" finds a whole domain), filtered by state and schema, paged by token with
 * the place kept in the URL, with bulk deactivate and delete.
 */
export default function IdentitiesPage() {
  const project = useProject();
  const projectId = project.id;
  const [, navigate] = useLocation();
  const [url, setUrl] = useUrlState(['search', 'state', 'schema'] as const);
  const { pageToken, firstPage, pager } = usePagedList();
  const [typed, setTyped] = useState(url.search);
  const search = useDebounced(typed.trim(), 300);
  useEffect(() => {
    if (search !== url.search) setUrl({ search, ...firstPage });
  }, [search, url.search, setUrl]);
  const [creating, setCreating] = useState(false);
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulk, setBulk] = useState<'delete' | 'deactivate' | null>(null);

  const list = trpc.identities.list.useQuery(
    {
      projectId,
      ...(url.search ? { search: url.search } : {}),
      ...(url.state === 'active' || url.state === 'inactive' ? { state: url.state } : {}),
      ...(url.schema ? { schemaId: url.schema } : {}),
      ...(pageToken ? { pageToken } : {}),
    },
    { placeholderData: (previous) => previous },
  );
  const schemas = trpc.identities.schemas.useQuery({ projectId });
  // Names of the schemas (a managed schema's id is a UUID nobody recognizes).
  const schemaName = schemaNamer(trpc.schemas.list.useQuery({ projectId }).data);
  const remove = trpc.identities.delete.useMutation();
  const setState = trpc.identities.setState.useMutation();
  const [bulkError, setBulkError] = useState<string | null>(null);
  const [bulkBusy, setBulkBusy] = useState(false);

  // A new filter or page starts with nothing selected.
  useEffect(() => setSelected(new Set()), [url.search, url.state, url.schema, pageToken]);

  const runBulk = async () => {
    if (!bulk) return;
    setBulkBusy(true);
    setBulkError(null);
    const ids = [...selected];
    const failed: string[] = [];
    for (const identityId of ids) {
      try {
        if (bulk === 'delete') await remove.mutateAsync({ projectId, identityId });
        else await setState.mutateAsync({ projectId, identityId, state: 'inactive' });
      } catch (err) {
        failed.push(errorText(err) ?? identityId);
      }
    }
    setBulkBusy(false);
    const done = ids.length - failed.length;
    if (failed.length) setBulkError(`${done} of ${ids.length} done; ${failed.length} failed: ${failed[0]}`);
    else {
      toast.success(bulk === 'delete' ? `${done} identit${done === 1 ? 'y' : 'ies'} deleted` : `${done} identit${done === 1 ? 'y' : 'ies'} deactivated`);
      setBulk(null);
      setSelected(new Set());
    }
  };

  return (
    <div className="page" data-testid="identities-page">
      <PageHeader
        title="Identities"
        description="The user accounts of this project. Search by email, name, ID or any part of an identifier."
        actions={
          <>
            <Button onClick={() => setImporting(true)} data-testid="identities-import-open">
              Import
            </Button>
            <Button variant="primary" onClick={() => setCreating(true)} data-testid="identity-create-open">
              Create identity
            </Button>
          </>
        }
      />
      <Card testId="identities-card">
        <div className="filters" role="search">
          <TextField label="Search" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} placeholder="ada@example.com, @example.com, a name or an ID" data-testid="identities-search" />
          <Select
            label="State"
            value={url.state}
            onChange={(e) => setUrl({ state: e.target.value, ...firstPage })}
            options={[
              { value: '', label: 'Any state' },
              { value: 'active', label: 'Active' },
              { value: 'inactive', label: 'Inactive' },
            ]}
            data-testid="identities-state-filter"
          />
          <Select
            label="Schema"
            value={url.schema}
            onChange={(e) => setUrl({ schema: e.target.value, ...firstPage })}
            options={[{ value: '', label: 'Any schema' }, ...(schemas.data ?? []).map((s) => ({ value: s.id, label: schemaName(s.id) }))]}
            data-testid="identities-schema-filter"
          />
        </div>
        {selected.size > 0 && (
          <div className="bulk-bar" role="region" aria-label="Selected identities" data-testid="identities-bulk-bar">
            <span>{selected.size} selected</span>
            <Button onClick={() => setBulk('deactivate')} data-testid="identities-bulk-deactivate">
              Deactivate
            </Button>
            <Button variant="danger" onClick={() => setBulk('delete')} data-testid="identities-bulk-delete">
              Delete
            </Button>
            <Button variant="ghost" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
          </div>
        )}
        <QueryView
          query={list}
          skeleton="table"
          errorTitle="The identities could not be loaded"
          isEmpty={(answer) => answer.identities.length === 0}
          empty={
            url.search || url.state || url.schema
              ? { title: 'No identity matches', description: 'Nothing matches this search and these filters. Try part of an address, such as @example.com.', testId: 'identities-no-match' }
              : {
                  title: 'No identities yet',
                  description: 'Identities appear here when users sign up, or when you create or import them.',
                  action: (
                    <Button variant="primary" onClick={() => setCreating(true)}>
                      Create identity
                    </Button>
                  ),
                }
          }
        >
          {(answer) => {
            const ids = answer.identities.map((i) => i.id);
            const allSelected = ids.length > 0 && ids.every((id) => selected.has(id));
            return (
              <>
                {answer.total !== null && (
                  <p className="muted" data-testid="identities-total">
                    {identityCount(answer.total)}
                  </p>
                )}
                <label className="check-all">
                  <input
                    type="checkbox"
                    checked={allSelected}
                    onChange={() => setSelected(allSelected ? new Set() : new Set(ids))}
                    data-testid="identities-select-all"
                  />{' '}
                  Select all on this page
                </label>
                <Table
                  caption="Identities"
                  testId="identities-table"
                  rows={answer.identities}
                  rowKey={(i) => i.id}
                  columns={[
                    {
                      key: 'select',
                      header: 'Select',
                      render: (i) => (
                        <input
                          type="checkbox"
                          aria-label={`Select ${identityLabel(i)}`}
                          checked={selected.has(i.id)}
                          onChange={() =>
                            setSelected((s) => {
                              const next = new Set(s);
                              if (next.has(i.id)) next.delete(i.id);
                              else next.add(i.id);
                              return next;
                            })
                          }
                          data-testid="identity-select"
                        />
                      ),
                    },
                    {
                      key: 'identity',
                      header: 'Identity',
                      className: 'col-name',
                      render: (i) => (
                        <Link href={ROUTES.identity.build({ project: projectId, identity: i.id })} className="link" data-testid="identity-link">
                          {identityLabel(i)}
                        </Link>
                      ),
                    },
                    { key: 'name', header: 'Name', render: (i) => identityName(i) ?? <span className="muted">—</span> },
                    { key: 'state', header: 'State', render: (i) => <span className={`badge badge-${i.state === 'inactive' ? 'stage' : 'prod'}`}>{i.state === 'inactive' ? 'Inactive' : 'Active'}</span> },
                    {
                      key: 'schema',
                      header: 'Schema',
                      render: (i) => (
                        <span title={i.schema_id} data-testid="identity-schema">
                          {schemaName(i.schema_id)}
                        </span>
                      ),
                    },
                    { key: 'created', header: 'Created', render: (i) => formatDate(i.created_at) },
                  ]}
                />
                {pager({ label: 'Identity pages', nextToken: answer.nextPageToken, busy: list.isFetching && list.isPlaceholderData, testId: 'identities' })}
              </>
            );
          }}
        </QueryView>
      </Card>
      <CreateIdentityDialog open={creating} onClose={() => setCreating(false)} onCreated={(id) => navigate(ROUTES.identity.build({ project: projectId, identity: id }))} projectId={projectId} />
      <ImportDialog open={importing} onClose={() => setImporting(false)} projectId={projectId} />
      <ConfirmDialog
        open={bulk !== null}
        title={bulk === 'delete' ? `Delete ${selected.size} identit${selected.size === 1 ? 'y' : 'ies'}?` : `Deactivate ${selected.size} identit${selected.size === 1 ? 'y' : 'ies'}?`}
        message={
          bulk === 'delete'
            ? 'Their credentials, sessions and addresses are deleted with them. This cannot be undone.'
            : 'They can no longer sign in, and their sessions stop working, until they are activated again.'
        }
        {...(bulk === 'delete' ? { confirmText: 'delete' } : {})}
        confirmLabel={bulk === 'delete' ? 'Delete' : 'Deactivate'}
        variant={bulk === 'delete' ? 'danger' : 'primary'}
        busy={bulkBusy}
        error={bulkError ?? undefined}
        onConfirm={() => void runBulk()}
        onClose={() => (setBulk(null), setBulkError(null))}
        testId="identities-bulk-dialog"
      />
    </div>
  );
}

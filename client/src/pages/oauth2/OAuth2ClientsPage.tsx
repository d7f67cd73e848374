import { useState } from 'react';
import toast from 'react-hot-toast';
import { OAUTH2_CLIENTS_PAGE_SIZE, type OAuth2ClientView } from '../../../../shared/schemas/oauth2';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { useDebounced } from '../../lib/use-debounced';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { formatDate } from '../../../../shared/domain/format';
import { ClientDialog, SecretNotice } from './ClientDialog';
import { ConsentSessionsSection } from './ConsentSessionsSection';

/**
 * /projects/{project}/oauth: the project's OAuth2 clients, 25 a page, found by name; create and edit in a
 * dialog (the secret shown once), rotate the secret, delete with confirmation.
 */
export default function OAuth2ClientsPage() {
  const project = useProject();
  const projectId = project.id;
  const [typed, setTyped] = useState('');
  const clientName = useDebounced(typed.trim(), 300);
  const [pages, setPages] = useState<string[]>([]);
  const pageToken = pages.at(-1);
  const [editing, setEditing] = useState<OAuth2ClientView | 'new' | null>(null);
  const [deleting, setDeleting] = useState<OAuth2ClientView | null>(null);
  const [rotating, setRotating] = useState<OAuth2ClientView | null>(null);

  const list = trpc.oauth2Clients.list.useQuery(
    { projectId, pageSize: OAUTH2_CLIENTS_PAGE_SIZE, ...(clientName ? { clientName } : {}), ...(pageToken ? { pageToken } : {}) },
    { placeholderData: (previous) => previous },
  );
  const remove = trpc.oauth2Clients.delete.useMutation({ onSuccess: () => (toast.success('Client deleted'), setDeleting(null)) });
  const rotate = trpc.oauth2Clients.rotateSecret.useMutation();
  const closeRotate = () => (setRotating(null), rotate.reset());
  const label = (c: OAuth2ClientView) => c.client_name || c.client_id || '';

  const createButton = (
    <Button variant="primary" onClick={() => setEditing('new')} data-testid="oauth2-client-open">
      Create OAuth2 client
    </Button>
  );
  return (
    <div className="page" data-testid="oauth2-clients-page">
      <PageHeader title="OAuth2 clients" description="Applications that sign users in with this project, or call its APIs with tokens it issues." actions={createButton} />
      <Card>
        <TextField
          label="Find by name"
          type="search"
          value={typed}
          onChange={(e) => (setTyped(e.target.value), setPages([]))}
          hint="The client's exact name."
          data-testid="oauth2-clients-search"
        />
        <QueryView
          query={list}
          skeleton="table"
          errorTitle="The OAuth2 clients could not be loaded"
          isEmpty={(page) => page.clients.length === 0 && pages.length === 0}
          empty={{
            title: clientName ? 'No client has this name' : 'No OAuth2 clients yet',
            description: clientName
              ? 'Check the spelling: the name must match exactly.'
              : 'An OAuth2 client is an application (a website, a mobile app, a CLI or a backend) that gets tokens from this project to sign users in or call APIs. Create your first client to get its ID and secret.',
            ...(clientName ? {} : { action: createButton }),
          }}
        >
          {(page) => (
            <>
              <Table
                caption="OAuth2 clients"
                testId="oauth2-clients-table"
                rowKey={(c) => c.client_id ?? ''}
                rows={page.clients}
                columns={[
                  { key: 'name', header: 'Name', className: 'col-name', render: (c) => c.client_name || <em>Unnamed</em> },
                  { key: 'id', header: 'Client ID', className: 'col-code', render: (c) => <code>{c.client_id}</code> },
                  { key: 'grants', header: 'Grant types', render: (c) => (c.grant_types?.length ? c.grant_types.join(', ') : 'authorization_code') },
                  { key: 'created', header: 'Created', render: (c) => (c.created_at ? formatDate(c.created_at) : '') },
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (c) => (
                      <div className="row-actions">
                        <Button variant="ghost" onClick={() => setEditing(c)} data-testid={`oauth2-client-edit-${label(c)}`}>
                          Edit
                        </Button>
                        <Button variant="ghost" onClick={() => setRotating(c)} data-testid={`oauth2-client-rotate-${label(c)}`}>
                          Rotate secret
                        </Button>
                        <Button variant="ghost" onClick={() => setDeleting(c)} data-testid={`oauth2-client-delete-${label(c)}`}>
                          Delete
                        </Button>
                      </div>
                    ),
                  },
                ]}
              />
              <Pager
                label="OAuth2 client pages"
                hasPrevious={pages.length > 0}
                nextToken={page.nextPageToken}
                busy={list.isFetching}
                onPrevious={() => setPages(pages.slice(0, -1))}
                onNext={(token) => setPages([...pages, token])}
                testId="oauth2-clients-pager"
              />
            </>
          )}
        </QueryView>
      </Card>

      <ConsentSessionsSection projectId={projectId} />

      {editing && <ClientDialog projectId={projectId} client={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this OAuth2 client?"
        message={`"${deleting ? label(deleting) : ''}" can no longer get tokens, and the tokens it has stop working. This cannot be undone.`}
        confirmLabel="Delete client"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'Could not delete the client.') : undefined}
        onConfirm={() => deleting?.client_id && remove.mutate({ projectId, clientId: deleting.client_id })}
        onClose={() => (setDeleting(null), remove.reset())}
        testId="delete-oauth2-client-dialog"
      />

      <Dialog
        open={rotating !== null}
        onClose={closeRotate}
        title={rotate.data ? 'Copy the new client secret' : 'Rotate the client secret?'}
        testId="rotate-oauth2-secret-dialog"
        footer={
          rotate.data ? (
            <Button variant="primary" onClick={closeRotate} data-testid="oauth2-rotate-done">
              Done
            </Button>
          ) : (
            <>
              <Button onClick={closeRotate}>Cancel</Button>
              <Button variant="primary" busy={rotate.isPending} onClick={() => rotating?.client_id && rotate.mutate({ projectId, clientId: rotating.client_id })} data-testid="oauth2-rotate-confirm">
                Rotate secret
              </Button>
            </>
          )
        }
      >
        {rotate.data ? (
          <SecretNotice client={rotate.data} />
        ) : (
          <p>
            &quot;{rotating ? label(rotating) : ''}&quot; gets a new secret. The current one keeps working beside it until the client's old secrets are deleted, so the application can move over without downtime.
            {rotate.error && (
              <span className="field-error" role="alert">
                {' '}
                {errorText(rotate.error) ?? 'Could not rotate the secret.'}
              </span>
            )}
          </p>
        )}
      </Dialog>
    </div>
  );
}

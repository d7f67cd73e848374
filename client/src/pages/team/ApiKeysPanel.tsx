import { formatDate } from '../../../../shared/domain/format';
import { useState } from 'react';
import toast from 'react-hot-toast';
import { apiKeyFormSchema } from '../../../../shared/schemas/team';
import { ActionForm, useActionForm } from '../../components/ActionForm';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { TextField } from '../../components/TextField';
import { Tooltip } from '../../components/Tooltip';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';
import { scopeNoun, type TeamScope } from './scope';
import { useOwnerAnswer } from './use-owner';

const day = (iso: string | null | undefined) => formatDate(iso, { fallback: 'Never' });

/** API keys of a project (ory_pat_) or a workspace (ory_wak_): list, create (secret shown once), delete. */
export function ApiKeysPanel({ scope }: { scope: TeamScope }) {
  const ownerAnswer = useOwnerAnswer(scope);
  const isOwner = ownerAnswer === true;
  const keys = trpc.apiKeys.list.useQuery(scope);
  const members = trpc.members.list.useQuery(scope);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<{ id: string; name: string } | null>(null);
  const create = trpc.apiKeys.create.useMutation();
  const remove = trpc.apiKeys.delete.useMutation({ onSuccess: () => (toast.success('API key deleted'), setDeleting(null)) });
  const creatorOf = (ownerId: string) => members.data?.find((m) => m.id === ownerId)?.email ?? 'A former member';
  const action = useActionForm({
    schema: apiKeyFormSchema,
    defaultValues: { name: '', expiry: '' },
    // The key works until the end of its last day (UTC).
    onSubmit: ({ name, expiry }) => create.mutateAsync({ ...scope, name, expiresAt: expiry ? new Date(`${expiry}T23:59:59Z`).toISOString() : null }),
    errorFallback: 'Could not create the key.',
  });
  const closeCreate = () => {
    setCreating(false);
    action.reset();
    create.reset();
  };
  const created = create.data;

  const createButton = (
    <Button variant="primary" disabled={!isOwner} onClick={() => setCreating(true)} data-testid="api-key-open">
      Create API key
    </Button>
  );
  return (
    <>
      <Card title="API keys" testId="api-keys-card" actions={isOwner ? createButton : <Tooltip content="Only an owner can create API keys.">{createButton}</Tooltip>}>
        {/* Disabled buttons say why on hover; a touch or keyboard user reads it here. */}
        {ownerAnswer === false && (
          <p className="banner" role="status" data-testid="api-keys-owner-note">
            Only an owner can create or delete API keys; you can see which keys exist.
          </p>
        )}
        <QueryView
          query={keys}
          skeleton="table"
          errorTitle="The API keys could not be loaded"
          isEmpty={(rows) => rows.length === 0}
          empty={{ title: 'No API keys yet', description: `Keys let scripts and CI call this ${scopeNoun(scope)}'s API without a browser session.` }}
        >
          {(rows) => (
            <Table
              caption="API keys"
              testId="api-keys-table"
              rowKey={(k) => k.id}
              rows={rows}
              columns={[
                { key: 'name', header: 'Name', className: 'col-name', render: (k) => k.name },
                { key: 'last', header: 'Ends with', className: 'col-code', render: (k) => <code>…{k.last_characters}</code> },
                { key: 'created', header: 'Created', render: (k) => day(k.created_at) },
                { key: 'expires', header: 'Expires', render: (k) => day(k.expires_at) },
                { key: 'by', header: 'Created by', render: (k) => creatorOf(k.owner_id) },
                {
                  key: 'actions',
                  header: 'Actions',
                  render: (k) => {
                    const button = (
                      <Button variant="ghost" disabled={!isOwner} onClick={() => setDeleting({ id: k.id, name: k.name })} data-testid={`api-key-delete-${k.name}`}>
                        Delete
                      </Button>
                    );
                    return isOwner ? button : <Tooltip content="Only an owner can delete API keys.">{button}</Tooltip>;
                  },
                },
              ]}
            />
          )}
        </QueryView>
      </Card>

      <Dialog
        open={creating}
        onClose={closeCreate}
        title={created ? 'Copy your new API key' : 'Create an API key'}
        testId="api-key-dialog"
        footer={
          created ? (
            <Button variant="primary" onClick={closeCreate} data-testid="api-key-done">
              Done
            </Button>
          ) : (
            <>
              <Button onClick={closeCreate}>Cancel</Button>
              <Button variant="primary" type="submit" form={action.id} busy={action.busy} data-testid="api-key-submit">
                Create key
              </Button>
            </>
          )
        }
      >
        {created ? (
          <div className="inline-form">
            <p className="banner" role="alert">
              This is the only time the key is shown. Copy it now and keep it somewhere safe: it cannot be shown again.
            </p>
            <code className="secret-value" data-testid="api-key-secret">
              {created.value}
            </code>
            <CopyButton value={created.value} label="Copy API key" testId="api-key-copy" />
          </div>
        ) : (
          <ActionForm action={action} testId="api-key-form">
            <TextField
              label="Name"
              hint="Say what uses the key, such as 'CI deploys'."
              autoComplete="off"
              error={action.form.formState.errors.name?.message}
              data-testid="api-key-name"
              required
              {...action.form.register('name')}
            />
            <TextField label="Expires on (optional)" type="date" error={action.form.formState.errors.expiry?.message} data-testid="api-key-expiry" {...action.form.register('expiry')} />
          </ActionForm>
        )}
      </Dialog>

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this API key?"
        message={`Anything still using "${deleting?.name ?? ''}" stops working at once. This cannot be undone.`}
        confirmLabel="Delete key"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'Could not delete the key.') : undefined}
        onConfirm={() => deleting && remove.mutate({ ...scope, keyId: deleting.id })}
        onClose={() => (setDeleting(null), remove.reset())}
        testId="delete-api-key-dialog"
      />
    </>
  );
}

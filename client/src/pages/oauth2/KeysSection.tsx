import { useState } from 'react';
import toast from 'react-hot-toast';
import type { z } from 'zod';
import { errorStatus } from '../../../../shared/domain/errors';
import { ID_TOKEN_KEY_SET, KEY_ALGORITHMS, oauth2KeyCreateForm, type publicJwkSchema } from '../../../../shared/schemas/oauth2';
import { ActionForm, useActionForm } from '../../components/ActionForm';
import { Button } from '../../components/Button';
import { Card, EmptyState } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { LoadError } from '../../components/QueryView';
import { Skeleton } from '../../components/Skeleton';
import { Table } from '../../components/Table';
import { Select, TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';

type KeyForm = z.input<typeof oauth2KeyCreateForm>;
// The wire type of a loose object loses its known fields on the way through tRPC's inference: read it as the schema says.
type PublicKey = z.infer<typeof publicJwkSchema>;

/**
 * The project's JSON Web Key sets, one at a time: the signing set of ID tokens by default, or any set by name.
 * A new key in the signing set signs from then on (rotation); a key, or the whole set, is deleted after
 * confirmation. Only public parts are ever shown.
 */
export function KeysSection({ projectId }: { projectId: string }) {
  const [typed, setTyped] = useState(ID_TOKEN_KEY_SET);
  const [set, setSet] = useState(ID_TOKEN_KEY_SET);
  const [deleting, setDeleting] = useState<string | null>(null);
  const keys = trpc.oauth2Keys.get.useQuery({ projectId, set }, { retry: false });
  const create = trpc.oauth2Keys.create.useMutation();
  const remove = trpc.oauth2Keys.deleteKey.useMutation({ onSuccess: () => (toast.success('Key deleted'), setDeleting(null)) });
  const [deletingSet, setDeletingSet] = useState(false);
  const removeSet = trpc.oauth2Keys.deleteSet.useMutation({ onSuccess: () => (toast.success('Key set deleted'), setDeletingSet(false)) });
  const signing = set === ID_TOKEN_KEY_SET;

  const action = useActionForm({
    schema: oauth2KeyCreateForm,
    defaultValues: { set, alg: 'RS256', use: 'sig', kid: '' } as KeyForm,
    onSubmit: (values) => create.mutateAsync({ projectId, ...values, set }),
    onDone: () => toast.success(signing ? 'New signing key created: it signs from now on' : 'Key created'),
    errorFallback: 'Could not create the key.',
  });
  const errors = action.form.formState.errors;
  // A set no key was ever made in does not exist yet: that is an empty set, not a failure.
  const missing = keys.isError && errorStatus(keys.error) === 404;

  return (
    <Card title="JSON Web Keys" testId="oauth2-keys">
      <p className="hint">
        The keys that sign this project&apos;s ID tokens and JWT access tokens live in the set {ID_TOKEN_KEY_SET}; apps verify tokens with their
        public parts, published at the JWKS endpoint. Private parts never leave the server.
      </p>
      <form
        className="inline-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (typed.trim()) setSet(typed.trim());
        }}
        data-testid="oauth2-keys-set-form"
      >
        <TextField label="Key set" value={typed} onChange={(e) => setTyped(e.target.value)} hint="The set's name; the signing set is shown first." autoComplete="off" data-testid="oauth2-keys-set" />
        <div className="form-actions">
          <Button type="submit" data-testid="oauth2-keys-set-show">
            Show keys
          </Button>
        </div>
      </form>

      {keys.isPending ? (
        <Skeleton shape="table" />
      ) : keys.isError && !missing ? (
        <LoadError title="The keys could not be loaded" error={keys.error} onRetry={() => void keys.refetch()} retrying={keys.isRefetching} />
      ) : missing || (keys.data?.keys.length ?? 0) === 0 ? (
        <EmptyState
          testId="oauth2-keys-empty"
          title={`No keys in ${set}`}
          description={signing ? 'The server makes its signing key when it first signs a token; create one now to choose its algorithm.' : 'Create a key below to start this set.'}
        />
      ) : (
        <>
        <Table
          caption={`Keys of ${set}`}
          testId="oauth2-keys-table"
          rowKey={(k) => k.kid ?? ''}
          rows={(keys.data?.keys ?? []) as PublicKey[]}
          columns={[
            { key: 'kid', header: 'Key ID', className: 'col-code', render: (k) => <code>{k.kid}</code> },
            { key: 'alg', header: 'Algorithm', render: (k) => k.alg ?? '' },
            { key: 'use', header: 'Use', render: (k) => (k.use === 'enc' ? 'Encryption' : 'Signing') },
            { key: 'kty', header: 'Type', render: (k) => [k.kty, k.crv].filter(Boolean).join(' ') },
            {
              key: 'actions',
              header: 'Actions',
              render: (k) => (
                <Button variant="ghost" onClick={() => setDeleting(k.kid ?? '')} data-testid={`oauth2-key-delete-${k.kid}`}>
                  Delete
                </Button>
              ),
            },
          ]}
        />
        <div className="form-actions">
          <Button variant="danger" onClick={() => setDeletingSet(true)} data-testid="oauth2-key-set-delete">
            Delete the set {set}
          </Button>
        </div>
        </>
      )}

      <ActionForm action={action} testId="oauth2-key-create" submitLabel={signing ? 'Rotate: create a new signing key' : 'Create key'}>
        <Select
          label="Algorithm"
          options={(signing ? (['RS256'] as const) : KEY_ALGORITHMS).map((alg) => ({ value: alg, label: alg }))}
          hint={signing ? 'The signing keys sign tokens with RS256, which every OpenID Connect library verifies.' : 'RS256 is what most libraries expect; HS keys are symmetric.'}
          error={errors.alg?.message}
          data-testid="oauth2-key-alg"
          {...action.form.register('alg')}
        />
        <Select
          label="Use"
          options={[
            { value: 'sig', label: 'Signing (sig)' },
            { value: 'enc', label: 'Encryption (enc)' },
          ]}
          hint="Signing keys sign tokens; encryption keys encrypt them."
          error={errors.use?.message}
          {...action.form.register('use')}
        />
        <TextField label="Key ID (optional)" hint="Left empty, the server names the key." autoComplete="off" error={errors.kid?.message} data-testid="oauth2-key-kid" {...action.form.register('kid')} />
      </ActionForm>

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this key?"
        message={
          signing
            ? `Tokens signed with "${deleting ?? ''}" can no longer be verified, so apps holding them must get new ones. This cannot be undone.`
            : `"${deleting ?? ''}" leaves the set ${set}. This cannot be undone.`
        }
        confirmLabel="Delete key"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'Could not delete the key.') : undefined}
        onConfirm={() => deleting && remove.mutate({ projectId, set, kid: deleting })}
        onClose={() => (setDeleting(null), remove.reset())}
        testId="delete-oauth2-key-dialog"
      />

      <ConfirmDialog
        open={deletingSet}
        title={`Delete the key set ${set}?`}
        message={
          signing
            ? 'Every key that signs this project\'s tokens goes: tokens signed so far can no longer be verified, and the server makes a new signing key when it next signs. This cannot be undone.'
            : `Every key of ${set} goes with it. This cannot be undone.`
        }
        confirmLabel="Delete key set"
        busy={removeSet.isPending}
        error={removeSet.error ? (errorText(removeSet.error) ?? 'Could not delete the key set.') : undefined}
        onConfirm={() => removeSet.mutate({ projectId, set })}
        onClose={() => (setDeletingSet(false), removeSet.reset())}
        testId="delete-oauth2-key-set-dialog"
      />
    </Card>
  );
}

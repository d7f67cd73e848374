import { useEffect, useState } from 'react';
import toast from 'react-hot-toast';
import { traitErrorsOfReason } from '../../../../shared/domain/schema-form';
import { Button } from '../../components/Button';
import { Dialog } from '../../components/Dialog';
import { Select } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';
import { SchemaForm } from './SchemaForm';
import { schemaTitle } from './schema-title';

/**
 * Creates an identity from the form its schema produces, checked in the browser with the same ajv
 * validation the identity provider runs; the provider's own refusal lands on the field it names.
 */
export function CreateIdentityDialog({ open, onClose, onCreated, projectId }: { open: boolean; onClose: () => void; onCreated: (identityId: string) => void; projectId: string }) {
  const schemas = trpc.identities.schemas.useQuery({ projectId }, { enabled: open });
  const [schemaId, setSchemaId] = useState('');
  const [traits, setTraits] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);
  const create = trpc.identities.create.useMutation();
  const chosen = schemas.data?.find((s) => s.id === schemaId) ?? schemas.data?.[0];

  useEffect(() => {
    if (!open) {
      setTraits({});
      setErrors({});
      setTried(false);
      create.reset();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset once per closing
  }, [open]);

  const checkTraits = trpc.identities.checkTraits.useMutation();
  const [checking, setChecking] = useState(false);
  /** The identity provider's own validation of these traits, field by field (empty when they fit). */
  const check = async (next: Record<string, unknown>) =>
    chosen ? ((await checkTraits.mutateAsync({ projectId, schemaId: chosen.id, traits: [next] })).errors[0] ?? {}) : {};

  const change = (next: Record<string, unknown>) => {
    setTraits(next);
    if (tried) void check(next).then(setErrors, () => undefined);
  };

  const submit = async () => {
    if (!chosen || create.isPending || checking) return;
    setTried(true);
    setChecking(true);
    let found: Record<string, string>;
    try {
      found = await check(traits);
    } catch (err) {
      found = { '': errorText(err) ?? 'The traits could not be checked.' };
    } finally {
      setChecking(false);
    }
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    create.mutate(
      { projectId, schemaId: chosen.id, traits },
      {
        onSuccess: (identity) => {
          toast.success('Identity created');
          onClose();
          onCreated(identity.id);
        },
        onError: (err) => setErrors(traitErrorsOfReason(errorText(err))),
      },
    );
  };

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="Create an identity"
      description="The fields come from the identity schema. The user sets a password through recovery or sign-in by code."
      testId="identity-create-dialog"
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="identity-create-form" busy={create.isPending || checking} disabled={!chosen} data-testid="identity-create-submit">
            Create identity
          </Button>
        </>
      }
    >
      <form
        id="identity-create-form"
        className="inline-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {schemas.isPending ? (
          <p className="muted">Loading the identity schemas…</p>
        ) : schemas.isError ? (
          <p className="field-error" role="alert">
            {errorText(schemas.error) ?? 'The identity schemas could not be loaded.'}
          </p>
        ) : (
          <>
            {(schemas.data?.length ?? 0) > 1 && (
              <Select
                label="Identity schema"
                options={(schemas.data ?? []).map((s) => ({ value: s.id, label: schemaTitle(s) }))}
                value={chosen?.id ?? ''}
                onChange={(e) => (setSchemaId(e.target.value), setErrors({}))}
                data-testid="identity-create-schema"
              />
            )}
            {chosen && <SchemaForm identitySchema={chosen.schema} traits={traits} onChange={change} errors={errors} disabled={create.isPending} />}
          </>
        )}
      </form>
    </Dialog>
  );
}

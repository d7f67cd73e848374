import { useState } from 'react';
import toast from 'react-hot-toast';
import type { IdentityAnswer as Identity } from '../../../../shared/schemas/identities';
import { traitErrorsOfReason } from '../../../../shared/domain/schema-form';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';
import { SchemaForm } from './SchemaForm';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The identity's traits in its schema's form: validated as typed, saved with what changed only, discardable. */
export function TraitsCard({ projectId, identity }: { projectId: string; identity: Identity }) {
  const schemas = trpc.identities.schemas.useQuery({ projectId });
  // `default` names the project's default schema, which the identity service lists first, when no schema has that id.
  const schema = (schemas.data?.find((s) => s.id === identity.schema_id) ?? (identity.schema_id === 'default' ? schemas.data?.[0] : undefined))?.schema;
  const saved = (identity.traits ?? {}) as Record<string, unknown>;
  const [traits, setTraits] = useState<Record<string, unknown>>(saved);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const utils = trpc.useUtils();
  const update = trpc.identities.update.useMutation({
    onSuccess: (updated) => {
      utils.identities.get.setData({ projectId, identityId: identity.id }, updated);
      setTraits((updated.traits ?? {}) as Record<string, unknown>);
      toast.success('Traits saved');
    },
    onError: (err) => setErrors(traitErrorsOfReason(errorText(err))),
  });
  const dirty = !same(traits, saved);

  return (
    <Card title="Traits" testId="identity-traits-card">
      {schemas.isPending ? (
        <p className="muted">Loading the identity schema…</p>
      ) : !schema ? (
        <p className="field-error" role="alert">
          The schema {identity.schema_id} of this identity could not be loaded, so its traits cannot be edited here.
        </p>
      ) : (
        <form
          className="inline-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            // The identity provider validates the traits against the schema and names any field that does not fit.
            if (!update.isPending) update.mutate({ projectId, identityId: identity.id, traits });
          }}
        >
          <SchemaForm identitySchema={schema} traits={traits} onChange={setTraits} errors={errors} disabled={update.isPending} testId="identity-traits-form" />
          <div className="form-actions form-actions-start">
            <Button type="submit" variant="primary" disabled={!dirty} busy={update.isPending} data-testid="identity-traits-save">
              Save traits
            </Button>
            <Button disabled={!dirty || update.isPending} onClick={() => (setTraits(saved), setErrors({}))} data-testid="identity-traits-discard">
              Discard
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}

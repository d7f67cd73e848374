import { useState } from 'react';
import toast from 'react-hot-toast';
import { oauth2ClientLifespansForm, type OAuth2ClientView } from '../../../../shared/schemas/oauth2';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/Dialog';
import { SettingsForm } from '../../components/SettingsForm';
import { TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';
import { LIFESPAN_GROUPS, lifespansOf, type LifespansForm } from './client-form';

/** The client's own token lifespans, per grant and token; each empty one leaves the project's lifespan to apply. */
export function ClientLifespans({ projectId, client, onSaved }: { projectId: string; client: OAuth2ClientView; onSaved: (saved: LifespansForm) => void }) {
  const save = trpc.oauth2Clients.setLifespans.useMutation();
  return (
    <section className="inline-form" aria-labelledby="oauth2-client-lifespans-title" data-testid="oauth2-client-lifespans">
      <h3 id="oauth2-client-lifespans-title">Token lifespans of this client</h3>
      <p className="hint">Override the project&apos;s token lifespans for this client alone. Write a duration such as 5m, 1h or 1h30m; leave empty for the project&apos;s.</p>
      <SettingsForm
        schema={oauth2ClientLifespansForm}
        values={lifespansOf(client)}
        testId="oauth2-client-lifespans-form"
        submitLabel="Save lifespans"
        errorContext="Could not save the client's lifespans"
        // Hydra replaces every lifespan of the client at once: send them all.
        onSave={async (_changes, all) => lifespansOf(await save.mutateAsync({ projectId, clientId: client.client_id ?? '', lifespans: all }))}
        onSaved={(saved) => (onSaved(saved), toast.success("The client's lifespans are saved"))}
      >
        {(form) => (
          <>
            {LIFESPAN_GROUPS.map((group) => (
              <fieldset key={group.grant}>
                <legend>{group.label} grant</legend>
                {group.fields.map(({ field, label }) => (
                  <TextField
                    key={field}
                    label={label}
                    autoComplete="off"
                    placeholder="Project's"
                    error={form.formState.errors[field]?.message}
                    data-testid={`oauth2-client-lifespan-${field}`}
                    {...form.register(field)}
                  />
                ))}
              </fieldset>
            ))}
          </>
        )}
      </SettingsForm>
    </section>
  );
}

/** Ends the secrets a rotation replaced, after confirmation; the current secret keeps working and is never shown again. */
export function RotatedSecrets({ projectId, client }: { projectId: string; client: OAuth2ClientView }) {
  const [asking, setAsking] = useState(false);
  const remove = trpc.oauth2Clients.deleteRotatedSecrets.useMutation({ onSuccess: () => (toast.success('Old secrets deleted'), setAsking(false)) });
  const label = client.client_name || client.client_id || '';
  return (
    <section className="inline-form" aria-labelledby="oauth2-client-secrets-title" data-testid="oauth2-client-secrets">
      <h3 id="oauth2-client-secrets-title">Old secrets</h3>
      <p className="hint">After a rotation the previous secrets keep working, so the application can move over. Delete them once it uses the new one.</p>
      <div className="form-actions">
        <Button onClick={() => setAsking(true)} data-testid="oauth2-client-delete-rotated">
          Delete old secrets
        </Button>
      </div>
      <ConfirmDialog
        open={asking}
        title="Delete the old secrets?"
        message={`Every secret of "${label}" that a rotation replaced stops working at once. The current secret keeps working. This cannot be undone.`}
        confirmLabel="Delete old secrets"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'Could not delete the old secrets.') : undefined}
        onConfirm={() => client.client_id && remove.mutate({ projectId, clientId: client.client_id })}
        onClose={() => (setAsking(false), remove.reset())}
        testId="delete-oauth2-rotated-dialog"
      />
    </section>
  );
}

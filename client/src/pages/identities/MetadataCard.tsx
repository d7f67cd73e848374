import { useState } from 'react';
import toast from 'react-hot-toast';
import type { IdentityAnswer as Identity } from '../../../../shared/schemas/identities';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { JsonEditor } from '../../components/JsonEditor';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';

const pretty = (value: unknown) => JSON.stringify(value ?? {}, null, 2);

/** Parses a metadata text: an object (or empty for none), or the reason it is not one. */
function parseMetadata(text: string): { value: Record<string, unknown> | null } | { error: string } {
  if (text.trim() === '') return { value: null };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return { error: 'Metadata must be a JSON object, such as {"plan": "pro"}.' };
    return { value: value as Record<string, unknown> };
  } catch (err) {
    return { error: `This is not JSON: ${(err as Error).message}` };
  }
}

/** Public metadata (readable by the user's session) and admin metadata (admin APIs only), each edited as JSON. */
export function MetadataCard({ projectId, identity }: { projectId: string; identity: Identity }) {
  return (
    <Card title="Metadata" testId="identity-metadata-card">
      <MetadataEditor projectId={projectId} identity={identity} which="metadataPublic" label="Public metadata" hint="Visible to the user through their session." saved={identity.metadata_public} />
      <MetadataEditor projectId={projectId} identity={identity} which="metadataAdmin" label="Admin metadata" hint="Visible only through the admin API." saved={identity.metadata_admin} />
    </Card>
  );
}

function MetadataEditor({ projectId, identity, which, label, hint, saved }: { projectId: string; identity: Identity; which: 'metadataPublic' | 'metadataAdmin'; label: string; hint: string; saved: unknown }) {
  const [text, setText] = useState(pretty(saved));
  const [error, setError] = useState<string | undefined>();
  const utils = trpc.useUtils();
  const update = trpc.identities.update.useMutation({
    onSuccess: (updated) => {
      utils.identities.get.setData({ projectId, identityId: identity.id }, updated);
      setText(pretty(which === 'metadataPublic' ? updated.metadata_public : updated.metadata_admin));
      toast.success(`${label} saved`);
    },
    onError: (err) => setError(errorText(err) ?? `${label} could not be saved.`),
  });
  const dirty = text !== pretty(saved);
  const testId = which === 'metadataPublic' ? 'metadata-public' : 'metadata-admin';
  return (
    <div className="metadata-editor">
      <JsonEditor label={label} hint={hint} value={text} onChange={(v) => (setText(v), setError(undefined))} error={error} testId={testId} minHeight="100px" />
      <div className="form-actions form-actions-start">
        <Button
          variant="primary"
          disabled={!dirty}
          busy={update.isPending}
          onClick={() => {
            const parsed = parseMetadata(text);
            if ('error' in parsed) return setError(parsed.error);
            update.mutate({ projectId, identityId: identity.id, [which]: parsed.value });
          }}
          data-testid={`${testId}-save`}
        >
          Save {label.toLowerCase()}
        </Button>
        <Button disabled={!dirty} onClick={() => (setText(pretty(saved)), setError(undefined))}>
          Discard
        </Button>
      </div>
    </div>
  );
}

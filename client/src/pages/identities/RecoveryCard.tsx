import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';

const until = (iso: string | null | undefined) => (iso ? `Valid until ${new Date(iso).toLocaleString()}.` : '');

/** A recovery code with the link of the flow to enter it in, for an identity that cannot sign in; copied to send by hand. */
export function RecoveryCard({ projectId, identityId }: { projectId: string; identityId: string }) {
  const code = trpc.identities.createRecoveryCode.useMutation();
  return (
    <Card title="Account recovery" testId="identity-recovery-card">
      <p className="muted">Send the code to the user yourself: whoever has it can sign in as this identity and set a new password.</p>
      <div className="form-actions">
        <Button busy={code.isPending} onClick={() => code.mutate({ projectId, identityId })} data-testid="recovery-code-create">
          Create recovery code
        </Button>
      </div>
      {code.error && (
        <p className="field-error" role="alert">
          {errorText(code.error) ?? 'The recovery code could not be created.'}
        </p>
      )}
      {code.data && (
        <div className="secret-row" data-testid="recovery-code">
          <code className="secret-value">{code.data.recovery_code}</code>
          <CopyButton value={code.data.recovery_code} label="Copy the recovery code" testId="recovery-code-copy" />
          <p className="field-hint">
            Enter it at <a href={code.data.recovery_link}>{code.data.recovery_link}</a>. {until(code.data.expires_at)}
          </p>
        </div>
      )}
    </Card>
  );
}

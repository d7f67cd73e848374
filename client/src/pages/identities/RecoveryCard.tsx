import { formatDateTime } from '../../../../shared/domain/format';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { CopyButton } from '../../components/CopyButton';
import { errorText } from '../../lib/errors';
import { trpc } from '../../trpc';

const until = (iso: string | null | undefined) => (iso ? `Valid until ${formatDateTime(iso)}.` : '');

/**
 * For an identity that cannot sign in: a recovery link (opening it signs the user in once and opens their
 * settings) or a recovery code with the link of the flow to enter it in; either is copied to send by hand.
 */
export function RecoveryCard({ projectId, identityId }: { projectId: string; identityId: string }) {
  const link = trpc.identities.createRecoveryLink.useMutation();
  const code = trpc.identities.createRecoveryCode.useMutation();
  const failed = link.error ?? code.error;
  return (
    <Card title="Account recovery" testId="identity-recovery-card">
      <p className="muted">Send the link or the code to the user yourself: whoever has it can sign in as this identity and set a new password.</p>
      <div className="form-actions form-actions-start">
        <Button busy={link.isPending} onClick={() => link.mutate({ projectId, identityId })} data-testid="recovery-link-create">
          Create recovery link
        </Button>
        <Button busy={code.isPending} onClick={() => code.mutate({ projectId, identityId })} data-testid="recovery-code-create">
          Create recovery code
        </Button>
      </div>
      {failed && (
        <p className="field-error" role="alert">
          {errorText(failed) ?? (link.error ? 'The recovery link could not be created.' : 'The recovery code could not be created.')}
        </p>
      )}
      {link.data && (
        <div className="secret-row" data-testid="recovery-link">
          <code className="secret-value">{link.data.recovery_link}</code>
          <CopyButton value={link.data.recovery_link} label="Copy the recovery link" testId="recovery-link-copy" />
          <p className="field-hint">It works once. {until(link.data.expires_at)}</p>
        </div>
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

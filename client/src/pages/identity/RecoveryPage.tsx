import { Link } from 'wouter';
import { ROUTES } from '../../routes';
import { FlowView, IdentityCard } from './IdentityFrame';
import { useFlow } from './use-flow';

/** After recovery the user sets a new password in settings, then lands on '/?after-recovery=true'. */
export const RECOVERY_RETURN_PATH = '/?after-recovery=true';

export default function RecoveryPage() {
  const flow = useFlow('recovery', { return_to: new URL(RECOVERY_RETURN_PATH, window.location.origin).toString() });
  const sent = flow.state.status === 'ready' && flow.state.flow.state === 'sent_email';
  return (
    <IdentityCard
      title={sent ? 'Enter your recovery code' : 'Recover your account'}
      testId="recovery-page"
      footer={
        <Link href={ROUTES.login.build({})} data-testid="login-link">
          Back to sign in
        </Link>
      }
    >
      {!sent && flow.state.status !== 'notice' && <p className="identity-lead">Enter the email address of your account and we will send you a recovery code.</p>}
      <FlowView {...flow} restart={() => void flow.restart()} submit={(b) => void flow.submit(b)} />
    </IdentityCard>
  );
}

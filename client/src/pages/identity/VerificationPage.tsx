import { Link } from 'wouter';
import { LinkButton } from '../../components/Button';
import { appPathFromReturnTo } from '../../lib/navigation';
import { ROUTES } from '../../routes';
import { UiMessages } from './FlowNodes';
import { FlowView, IdentityCard } from './IdentityFrame';
import { useFlow } from './use-flow';

export default function VerificationPage() {
  const flow = useFlow('verification', {});
  const passed = flow.state.status === 'ready' && flow.state.flow.state === 'passed_challenge';
  return (
    <IdentityCard
      title="Verify your email address"
      testId="verification-page"
      footer={
        <Link href={ROUTES.login.build({})} data-testid="login-link">
          Back to sign in
        </Link>
      }
    >
      {passed && flow.state.status === 'ready' ? (
        <>
          <UiMessages messages={flow.state.flow.ui.messages} />
          <LinkButton href={appPathFromReturnTo(flow.state.flow.return_to, '/')} data-testid="verification-continue">
            Continue
          </LinkButton>
        </>
      ) : (
        <FlowView {...flow} restart={() => void flow.restart()} submit={(b) => void flow.submit(b)} />
      )}
    </IdentityCard>
  );
}

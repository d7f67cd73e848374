import { Link } from 'wouter';
import { LinkButton } from '../../components/Button';
import { appPathFromReturnTo } from '../../lib/navigation';
import { forgetVerificationSent } from '../../lib/verification-notice';
import { markVerified } from '../../lib/verified-address';
import { ROUTES } from '../../routes';
import { trpc } from '../../trpc';
import { isAuthenticated, sessionIdentity, useSession } from '../../shell/use-session';
import type { SelfServiceFlow } from './flow-types';
import { UiMessages } from './FlowNodes';
import { FlowView, IdentityCard } from './IdentityFrame';
import { useFlow, type FlowState } from './use-flow';

/** The flow with its empty email field filled in with the signed-in user's address. */
export function withEmail(flow: SelfServiceFlow, email: string | undefined): SelfServiceFlow {
  if (!email) return flow;
  const nodes = flow.ui.nodes.map((node) => {
    const attrs = node.attributes;
    if (attrs.node_type !== 'input' || attrs.name !== 'email' || attrs.type === 'submit' || attrs.type === 'hidden' || attrs.value) return node;
    return { ...node, attributes: { ...attrs, value: email } };
  });
  return { ...flow, ui: { ...flow.ui, nodes } };
}

export default function VerificationPage() {
  const session = useSession();
  const utils = trpc.useUtils();
  const signedIn = isAuthenticated(session.data);
  const email = signedIn ? sessionIdentity(session.data)?.traits.email : undefined;
  const flow = useFlow('verification', {}, {
    onUpdated: (updated) => {
      if (updated.state !== 'passed_challenge') return;
      forgetVerificationSent();
      // The session's address is verified now. The BFF may answer from its few-seconds session cache,
      // so the cached session is updated here rather than fetched again.
      if (email) utils.auth.session.setData(undefined, (data) => markVerified(data, email));
    },
  });
  const state: FlowState = flow.state.status === 'ready' ? { ...flow.state, flow: withEmail(flow.state.flow, email) } : flow.state;
  const passed = state.status === 'ready' && state.flow.state === 'passed_challenge';
  const back = signedIn ? (
    <Link href="/" data-testid="back-to-console">
      Back to Console
    </Link>
  ) : (
    <Link href={ROUTES.login.build({})} data-testid="login-link">
      Back to sign in
    </Link>
  );

  return (
    <IdentityCard title="Verify your email address" testId="verification-page" footer={back}>
      {passed && state.status === 'ready' ? (
        <>
          <UiMessages messages={state.flow.ui.messages} />
          <LinkButton href={appPathFromReturnTo(state.flow.return_to, '/')} data-testid="verification-continue">
            Continue
          </LinkButton>
        </>
      ) : (
        // Keyed by the address, so the field shows it once the session has loaded.
        <div key={email ?? 'anonymous'}>
          <FlowView {...flow} state={state} restart={() => void flow.restart()} submit={(b) => void flow.submit(b)} />
        </div>
      )}
    </IdentityCard>
  );
}

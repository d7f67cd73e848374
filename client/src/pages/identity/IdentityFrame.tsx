import type { ReactNode } from 'react';
import { Button, LinkButton } from '../../components/Button';
import { Skeleton } from '../../components/Skeleton';
import { UiMessages } from './FlowNodes';
import { FlowForm } from './FlowForm';
import { offersPasskey, PasskeyForm } from './PasskeyForm';
import type { FlowNotice, FlowState } from './use-flow';

/** What a flow page says when the flow cannot start for the visitor's session, and where to go instead. */
export const FLOW_NOTICES: Record<FlowNotice, { title: string; text: string; action: { label: string; href: () => string }; testId: string }> = {
  'signed-in': {
    title: 'You are already signed in',
    text: 'This page is for signed-out visitors. To change your password or your email address, go to your account settings.',
    action: { label: 'Open account settings', href: () => '/settings' },
    testId: 'flow-notice-signed-in',
  },
  'signed-out': {
    title: 'You are not signed in',
    text: 'This page needs a signed-in account. Sign in, and you come back here.',
    action: { label: 'Sign in', href: () => `/login?${new URLSearchParams({ return_to: `${window.location.pathname}${window.location.search}` }).toString()}` },
    testId: 'flow-notice-signed-out',
  },
};

function FlowNoticeView({ notice }: { notice: FlowNotice }) {
  const content = FLOW_NOTICES[notice];
  return (
    <div className="state" role="status" data-testid={content.testId}>
      <h2 className="state-title">{content.title}</h2>
      <p className="state-text">{content.text}</p>
      <LinkButton href={content.action.href()} data-testid="flow-notice-action">
        {content.action.label}
      </LinkButton>
    </div>
  );
}

export function IdentityCard({ title, children, footer, testId }: { title: string; children: ReactNode; footer?: ReactNode; testId: string }) {
  return (
    <div className="identity-page">
      <section className="identity-card" data-testid={testId}>
        <h1 className="identity-title">{title}</h1>
        {children}
        {footer && <div className="identity-footer">{footer}</div>}
      </section>
    </div>
  );
}

export interface FlowViewProps {
  state: FlowState;
  submitting: boolean;
  submit: (body: Record<string, unknown>) => void;
  restart: () => void;
  groups?: readonly string[];
}

/** Loading, error or the flow's messages and form. */
export function FlowView({ state, submitting, submit, restart, groups }: FlowViewProps) {
  if (state.status === 'loading') return <Skeleton shape="form" />;
  if (state.status === 'notice') return <FlowNoticeView notice={state.notice} />;
  if (state.status === 'error') {
    return (
      <div className="state state-error" role="alert" data-testid="error-state">
        <h2 className="state-title">This step could not be loaded</h2>
        <p className="state-text">{state.message}</p>
        <Button onClick={restart} data-testid="retry-button">
          Start again
        </Button>
      </div>
    );
  }
  // Passkeys have a form of their own, below the flow's: their button runs the browser's ceremony, not a submit.
  const formGroups = groups ?? [...new Set(state.flow.ui.nodes.map((n) => n.group))].filter((g) => g !== 'passkey');
  const passkey = !groups && offersPasskey(state.flow);
  return (
    <>
      <UiMessages messages={state.flow.ui.messages} />
      <FlowForm key={state.version} flow={state.flow} groups={formGroups} submitting={submitting} onSubmit={submit} />
      {passkey && (
        <div className="flow-factor">
          <p className="card-text">Or sign in without a password, with a passkey on this device or your phone.</p>
          <PasskeyForm key={`passkey-${state.version}`} flow={state.flow} submitting={submitting} onSubmit={submit} testId="passkey-form" />
        </div>
      )}
    </>
  );
}

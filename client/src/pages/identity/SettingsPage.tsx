import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { LinkButton } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { AnalyticsSetting } from './AnalyticsSetting';
import { isEmailVerified, primaryAddress } from '../../lib/verified-address';
import { readVerificationSent, verificationPath } from '../../lib/verification-notice';
import { sessionIdentity, useSession } from '../../shell/use-session';
import { appPathFromReturnTo, currentPathWithSearch, loginPath } from '../../lib/navigation';
import { UiMessages } from './FlowNodes';
import { FlowForm } from './FlowForm';
import { FlowView } from './IdentityFrame';
import type { SelfServiceFlow } from './flow-types';
import { continueRedirect } from './ory-flow';
import { useFlow } from './use-flow';

function savedTarget(flow: SelfServiceFlow): string | null {
  const withContinue = flow as SelfServiceFlow & { continue_with?: Parameters<typeof continueRedirect>[0] };
  const target = continueRedirect(withContinue.continue_with) ?? flow.return_to;
  return target ? appPathFromReturnTo(target, '') || null : null;
}

/** Whether the sign-in address is verified, with the way to verify it when it is not. */
function EmailStatus() {
  const identity = sessionIdentity(useSession().data);
  if (!identity) return null;
  const verified = isEmailVerified(identity);
  return (
    <Card title="Email address" testId="settings-email">
      <p className="card-text">
        <strong>{primaryAddress(identity)}</strong>{' '}
        <span className={verified ? 'badge badge-prod' : 'badge badge-stage'} data-testid="email-verification-status">
          {verified ? 'Verified' : 'Not verified'}
        </span>
      </p>
      {!verified && (
        <LinkButton href={verificationPath(readVerificationSent(primaryAddress(identity)))} variant="secondary" data-testid="settings-verify-now">
          Verify now
        </LinkButton>
      )}
    </Card>
  );
}

export default function SettingsPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const flow = useFlow(
    'settings',
    {},
    {
      onUnauthorized: () => navigate(loginPath(currentPathWithSearch()), { replace: true }),
      onUpdated: (updated) => {
        if (updated.state !== 'success') return;
        void queryClient.invalidateQueries();
        const target = savedTarget(updated);
        if (target) navigate(target);
      },
    },
  );
  const restart = () => void flow.restart();
  const submit = (b: Record<string, unknown>) => void flow.submit(b);
  const { state } = flow;

  return (
    <div className="page page-narrow" data-testid="settings-page">
      <PageHeader title="Account settings" description="Your name and password for the Console." />
      {state.status !== 'ready' ? (
        <FlowView {...flow} restart={restart} submit={submit} />
      ) : (
        <>
          <UiMessages messages={state.flow.ui.messages} />
          <EmailStatus />
          <Card title="Profile" testId="settings-profile">
            <FlowForm key={`p-${state.version}`} flow={state.flow} groups={['profile']} submitting={flow.submitting} onSubmit={submit} testId="settings-profile-form" />
          </Card>
          <Card title="Password" testId="settings-password">
            <FlowForm key={`w-${state.version}`} flow={state.flow} groups={['password']} submitting={flow.submitting} onSubmit={submit} testId="settings-password-form" />
          </Card>
          <AnalyticsSetting />
        </>
      )}
    </div>
  );
}

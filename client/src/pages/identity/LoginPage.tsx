import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { absoluteReturnTo, appPathFromReturnTo } from '../../lib/navigation';
import { ROUTES } from '../../routes';
import { finishTarget } from './finish';
import { FlowView, IdentityCard } from './IdentityFrame';
import { UiMessages } from './FlowNodes';
import { FlowForm } from './FlowForm';
import type { SelfServiceFlow } from './flow-types';
import { useFlow } from './use-flow';

export default function LoginPage() {
  const query = new URLSearchParams(useSearch());
  const returnTo = query.get('return_to');
  const aal = query.get('aal');
  const [, goInApp] = useLocation();
  // A sign-in asked for by the console's OAuth2 server goes back to it (below /.ory), which is no page of the app.
  const navigate = (to: string, options?: { replace?: boolean }) => (to.startsWith('/.ory/') ? window.location.assign(to) : goInApp(to, options));
  const queryClient = useQueryClient();
  const forward = returnTo ? `?${new URLSearchParams({ return_to: returnTo }).toString()}` : '';

  const flow = useFlow(
    'login',
    { return_to: absoluteReturnTo(returnTo), aal, refresh: query.get('refresh') === 'true' },
    {
      onDone: (body, current) => {
        queryClient.removeQueries();
        navigate(finishTarget('after-login', [returnTo, current.return_to], body.continue_with));
      },
      onSignedIn: () => navigate(appPathFromReturnTo(returnTo, '/'), { replace: true }),
    },
  );

  const secondFactor = aal === 'aal2';
  const submit = (b: Record<string, unknown>) => void flow.submit(b);
  const { state } = flow;
  return (
    <IdentityCard
      title={secondFactor ? 'Confirm it is you' : 'Sign in to the Console'}
      testId="login-page"
      footer={
        secondFactor ? undefined : (
          <>
            <Link href={`${ROUTES.recovery.build({})}${forward}`} data-testid="forgot-password-link">
              Forgot your password?
            </Link>
            <span>
              No account yet?{' '}
              <Link href={`${ROUTES.registration.build({})}${forward}`} data-testid="registration-link">
                Create one
              </Link>
            </span>
          </>
        )
      }
    >
      {secondFactor && state.status === 'ready' ? (
        <SecondFactorForms flow={state.flow} version={state.version} submitting={flow.submitting} submit={submit} />
      ) : (
        <FlowView {...flow} restart={() => void flow.restart()} submit={submit} />
      )}
    </IdentityCard>
  );
}

const SECOND_FACTORS = [
  { group: 'totp', hint: 'Type the six-digit code your authenticator app shows for the Console.' },
  { group: 'lookup_secret', hint: 'No app at hand? Use one of your backup codes instead.' },
] as const;

/** The second factor (§4, aal=aal2): one form per factor the account has, so each is sent on its own. */
function SecondFactorForms({ flow, version, submitting, submit }: { flow: SelfServiceFlow; version: number; submitting: boolean; submit: (b: Record<string, unknown>) => void }) {
  const offered = SECOND_FACTORS.filter((f) => flow.ui.nodes.some((n) => n.group === f.group));
  return (
    <>
      <UiMessages messages={flow.ui.messages} />
      {offered.length === 0 && <p className="state-text">Your account has no second factor this step could take.</p>}
      {offered.map((f) => (
        <div key={f.group} className="flow-factor">
          <p className="card-text">{f.hint}</p>
          <FlowForm key={`${f.group}-${version}`} flow={flow} groups={[f.group]} submitting={submitting} onSubmit={submit} testId={`login-${f.group}-form`} />
        </div>
      ))}
    </>
  );
}

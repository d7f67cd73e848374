import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { absoluteReturnTo, appPathFromReturnTo } from '../../lib/navigation';
import { ROUTES } from '../../routes';
import { finishTarget } from './finish';
import { FlowView, IdentityCard } from './IdentityFrame';
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

  return (
    <IdentityCard
      title={aal === 'aal2' ? 'Confirm it is you' : 'Sign in to the Console'}
      testId="login-page"
      footer={
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
      }
    >
      <FlowView {...flow} restart={() => void flow.restart()} submit={(b) => void flow.submit(b)} />
    </IdentityCard>
  );
}

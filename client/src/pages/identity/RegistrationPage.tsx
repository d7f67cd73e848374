import { useQueryClient } from '@tanstack/react-query';
import { Link, useLocation, useSearch } from 'wouter';
import { absoluteReturnTo, appPathFromReturnTo } from '../../lib/navigation';
import { rememberVerificationSent } from '../../lib/verification-notice';
import { ROUTES } from '../../routes';
import { finishTarget } from './finish';
import { FlowView, IdentityCard } from './IdentityFrame';
import { useFlow } from './use-flow';

export default function RegistrationPage() {
  const returnTo = new URLSearchParams(useSearch()).get('return_to');
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const forward = returnTo ? `?${new URLSearchParams({ return_to: returnTo }).toString()}` : '';

  const flow = useFlow(
    'registration',
    { return_to: absoluteReturnTo(returnTo) },
    {
      onDone: (body, current) => {
        rememberVerificationSent(body.continue_with);
        queryClient.removeQueries();
        navigate(finishTarget('after-registration', [returnTo, current.return_to], body.continue_with));
      },
      onSignedIn: () => navigate(appPathFromReturnTo(returnTo, '/'), { replace: true }),
    },
  );

  return (
    <IdentityCard
      title="Create your account"
      testId="registration-page"
      footer={
        <span>
          Already have an account?{' '}
          <Link href={`${ROUTES.login.build({})}${forward}`} data-testid="login-link">
            Sign in
          </Link>
        </span>
      }
    >
      <FlowView {...flow} restart={() => void flow.restart()} submit={(b) => void flow.submit(b)} />
    </IdentityCard>
  );
}

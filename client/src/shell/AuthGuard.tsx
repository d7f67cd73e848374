import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { ErrorState } from '../components/Card';
import { GraceSpinner } from '../components/Spinner';
import { AAL2_REASON, isAal2Required } from '../lib/errors';
import { currentPathWithSearch, loginPath } from '../lib/navigation';
import { isAuthenticated, useSession } from './use-session';

/**
 * Spec §2 and §4: once the session has been fetched and there is none, send the user to the login
 * route with return_to; a 403 on the session (second factor needed) adds aal=aal2.
 */
export function AuthGuard({ required = true, children }: { required?: boolean; children: ReactNode }) {
  // Always rendered (idle on open pages), so moving between open and guarded pages keeps the tree.
  const session = useSession(required);
  const [location, navigate] = useLocation();
  const needsAal2 = required && isAal2Required(session.error);
  const signedOut = required && session.isSuccess && !isAuthenticated(session.data);

  useEffect(() => {
    if (!required || location === '/login') return;
    if (needsAal2) navigate(loginPath(currentPathWithSearch(), { aal: AAL2_REASON }), { replace: true });
    else if (signedOut) navigate(loginPath(currentPathWithSearch()), { replace: true });
  }, [required, needsAal2, signedOut, location, navigate]);

  if (!required) return <>{children}</>;
  if (session.isPending) return <GraceSpinner label="Checking your session" />;
  if (session.isError && !needsAal2) {
    return <ErrorState title="We could not check your session" message={session.error.message} onRetry={() => void session.refetch()} />;
  }
  if (needsAal2 || signedOut) return null;
  return <>{children}</>;
}

import { useState } from 'react';
import { isEmailVerified, primaryAddress } from '../lib/verified-address';
import { readVerificationSent, verificationPath } from '../lib/verification-notice';
import { sessionIdentity, useSession } from '../shell/use-session';
import { Button, LinkButton } from './Button';

const DISMISSED_KEY = 'console.verification-banner-dismissed';

function readDismissed(): boolean {
  try {
    return window.sessionStorage.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * While the session's address is not verified (in every tab, from the session itself): says so, with
 * Verify now, which resumes the sign-up's verification flow when this browser knows it. Dismissed, it
 * stays away for this tab.
 */
export function VerificationBanner() {
  const [dismissed, setDismissed] = useState(readDismissed);
  const session = useSession();
  const identity = sessionIdentity(session.data);
  if (dismissed || !identity || isEmailVerified(identity)) return null;
  const address = primaryAddress(identity);
  const notice = readVerificationSent(address);
  return (
    <div className="banner" role="status" data-testid="verification-banner">
      <p>
        {notice ? (
          <>
            We sent a verification code to <strong>{address}</strong>.
          </>
        ) : (
          <>
            Your email address <strong>{address}</strong> is not verified yet.
          </>
        )}{' '}
        Verify your email address to keep access to your account.
      </p>
      <div className="form-actions">
        <LinkButton href={verificationPath(notice)} data-testid="verify-now">
          Verify now
        </LinkButton>
        <Button
          variant="ghost"
          onClick={() => {
            try {
              window.sessionStorage.setItem(DISMISSED_KEY, '1');
            } catch {
              // The choice holds for this page view.
            }
            setDismissed(true);
          }}
        >
          Dismiss
        </Button>
      </div>
    </div>
  );
}

import { useState } from 'react';
import { isEmailVerified, primaryAddress } from '../lib/verified-address';
import { forgetVerificationSent, readVerificationSent, verificationPath } from '../lib/verification-notice';
import { sessionIdentity, useSession } from '../shell/use-session';
import { Button, LinkButton } from './Button';

/** After sign-up: "we sent a verification code", with Verify now, until the address is verified or dismissed. */
export function VerificationBanner() {
  const [notice, setNotice] = useState(readVerificationSent);
  const session = useSession();
  const identity = sessionIdentity(session.data);
  if (!notice || !identity || isEmailVerified(identity)) return null;
  const address = primaryAddress(identity);
  return (
    <div className="banner" role="status" data-testid="verification-banner">
      <p>
        We sent a verification code to <strong>{address}</strong>. Verify your email address to keep access to your account.
      </p>
      <div className="form-actions">
        <LinkButton href={verificationPath(notice)} data-testid="verify-now">
          Verify now
        </LinkButton>
        <Button
          variant="ghost"
          onClick={() => {
            forgetVerificationSent();
            setNotice(null);
          }}
        >
          Dismiss
        </Button>
      </div>
    </div>
  );
}

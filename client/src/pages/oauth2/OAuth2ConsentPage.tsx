import { useState } from 'react';
import { useSearch } from 'wouter';
import { Button, LinkButton } from '../../components/Button';
import { QueryView } from '../../components/QueryView';
import { errorCode, errorText } from '../../lib/errors';
import { trpc } from '../../trpc';
import { IdentityCard } from '../identity/IdentityFrame';
import { scopeInWords } from './scope-words';

/**
 * The console's own consent screen: an application (a command-line tool, say) asks to act on the signed-in
 * user's console account. It names the application with its logo and what it asks for in words; the user may
 * leave scopes unchecked, have the answer remembered, and allow or deny. Either answer sends the browser back to
 * the application (with a code, or with access_denied).
 */
export default function OAuth2ConsentPage() {
  const challenge = new URLSearchParams(useSearch()).get('consent_challenge') ?? '';
  const request = trpc.oauth2Consent.get.useQuery({ challenge }, { enabled: challenge !== '', retry: false });
  const [unchecked, setUnchecked] = useState<ReadonlySet<string>>(new Set());
  const [remember, setRemember] = useState(false);
  const leave = ({ redirect_to }: { redirect_to: string }) => window.location.assign(redirect_to);
  const accept = trpc.oauth2Consent.accept.useMutation({ onSuccess: leave });
  const reject = trpc.oauth2Consent.reject.useMutation({ onSuccess: leave });
  const busy = accept.isPending || reject.isPending || accept.isSuccess || reject.isSuccess;
  const failure = accept.error ?? reject.error;

  if (!challenge) {
    return (
      <IdentityCard title="Authorize an application" testId="consent-page">
        <div className="state state-error" role="alert" data-testid="consent-missing">
          <p className="state-text">This page opens when an application asks to use your account. Start again from the application.</p>
        </div>
      </IdentityCard>
    );
  }
  if (request.error && errorCode(request.error) === 'UNAUTHORIZED') {
    const back = `${window.location.pathname}${window.location.search}`;
    return (
      <IdentityCard title="Authorize an application" testId="consent-page">
        <div className="state" role="status" data-testid="consent-signed-out">
          <p className="state-text">Sign in to answer this request, and you come back here.</p>
          <LinkButton href={`/login?${new URLSearchParams({ return_to: back }).toString()}`}>Sign in</LinkButton>
        </div>
      </IdentityCard>
    );
  }

  return (
    <IdentityCard title="Authorize an application" testId="consent-page">
      <QueryView query={request} skeleton="form" errorTitle="This request could not be loaded">
        {(data) => {
          const name = String(data.client.client_name || data.client.client_id || 'An application');
          const logo = typeof data.client.logo_uri === 'string' && data.client.logo_uri ? data.client.logo_uri : null;
          const granted = data.requested_scope.filter((s) => !unchecked.has(s));
          return (
            <form
              data-testid="consent-form"
              onSubmit={(e) => {
                e.preventDefault();
                if (!busy) accept.mutate({ challenge, scopes: granted, remember });
              }}
            >
              <div className="consent-client">
                {logo ? <img src={logo} alt="" width={48} height={48} data-testid="consent-logo" /> : null}
                <p data-testid="consent-client">
                  <strong>{name}</strong> wants to use your console account.
                </p>
              </div>
              <fieldset disabled={busy}>
                <legend>It asks to:</legend>
                {data.requested_scope.length === 0 ? <p className="muted">Nothing beyond knowing that you said yes.</p> : null}
                {data.requested_scope.map((scope) => (
                  <label className="checkbox" key={scope}>
                    <input
                      type="checkbox"
                      checked={!unchecked.has(scope)}
                      data-testid={`consent-scope-${scope}`}
                      onChange={(e) => {
                        const next = new Set(unchecked);
                        if (e.target.checked) next.delete(scope);
                        else next.add(scope);
                        setUnchecked(next);
                      }}
                    />
                    <span>
                      {scopeInWords(scope)}
                      {scopeInWords(scope) === scope ? null : <span className="muted"> ({scope})</span>}
                    </span>
                  </label>
                ))}
                <label className="checkbox">
                  <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} data-testid="consent-remember" />
                  <span>Remember my answer for this application</span>
                </label>
              </fieldset>
              {failure ? (
                <p className="field-error" role="alert" data-testid="consent-error">
                  {errorText(failure) ?? 'Your answer could not be sent. Try again.'}
                </p>
              ) : null}
              <div className="row">
                <Button type="button" disabled={busy} busy={reject.isPending} onClick={() => reject.mutate({ challenge })} data-testid="consent-deny">
                  Deny
                </Button>
                <Button type="submit" variant="primary" disabled={busy} busy={accept.isPending} data-testid="consent-allow">
                  Allow
                </Button>
              </div>
            </form>
          );
        }}
      </QueryView>
    </IdentityCard>
  );
}

const JSON_HEADERS = { Accept: 'application/json' } as const;

interface LogoutFlow {
  logout_url: string;
  logout_token: string;
}

/** The logout URL on our own origin (through the /.ory proxy), whatever base the provider used. */
export function sameOriginLogoutUrl(flow: LogoutFlow, origin: string): string {
  try {
    const url = new URL(flow.logout_url, origin);
    if (url.origin === origin) return url.toString();
  } catch {
    // fall through to the token form
  }
  return `/.ory/self-service/logout?token=${encodeURIComponent(flow.logout_token)}`;
}

/** Ends the session: ask for a logout URL, then follow it. Resolves once the cookie is gone. */
export async function logout(origin: string = window.location.origin): Promise<void> {
  const res = await fetch('/.ory/self-service/logout/browser', { headers: JSON_HEADERS, credentials: 'same-origin' });
  if (res.status === 401) return; // no session: already signed out
  if (!res.ok) throw new Error(`Signing out failed (${res.status})`);
  const flow = (await res.json()) as LogoutFlow;
  const done = await fetch(sameOriginLogoutUrl(flow, origin), { headers: JSON_HEADERS, credentials: 'same-origin' });
  if (!done.ok && done.status !== 303) throw new Error(`Signing out failed (${done.status})`);
}

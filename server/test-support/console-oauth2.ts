import * as oidc from 'openid-client';

/** The console's own command-line client (localstack/oauth2/console.ts). */
export const CONSOLE_CLI = { clientId: 'console-cli', redirect: 'http://127.0.0.1/callback' };

/**
 * A command-line tool asking to act on a signed-in user's console account, driven by openid-client against the
 * console's own OAuth2 server at the stack's root: the browser (the user's cookies) is sent through the console
 * sign-in to the console's consent page. Answers the consent challenge of the page's URL, and how the flow ends
 * once the page has answered (`finish(redirect_to)`: where the browser lands back at the tool).
 */
export async function startConsoleConsent(stackUrl: string, cookie: string, scope = 'openid offline_access') {
  const config = await oidc.discovery(new URL(stackUrl), CONSOLE_CLI.clientId, { redirect_uris: [CONSOLE_CLI.redirect] }, oidc.None(), {
    execute: [oidc.allowInsecureRequests],
  });
  const jar = new Map<string, string>();
  for (const pair of cookie.split(';')) {
    const eq = pair.indexOf('=');
    if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
  const go = async (url: string) => {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    const location = res.headers.get('location');
    if (!location) throw new Error(`${url} answered ${res.status} without a redirect: ${await res.text()}`);
    return new URL(location, url);
  };
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  let at = await go(
    oidc.buildAuthorizationUrl(config, {
      redirect_uri: CONSOLE_CLI.redirect,
      scope,
      state,
      // A refresh token (offline_access) is only granted on a consent screen.
      prompt: 'consent',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).href,
  );
  // Through the console sign-in bridge (the user is signed in) to the consent page.
  for (let hops = 0; !at.searchParams.has('consent_challenge') && hops < 5; hops++) at = await go(at.href);
  const challenge = at.searchParams.get('consent_challenge');
  if (!challenge) throw new Error(`no consent page reached: ${at.href}`);
  return {
    consentPage: at,
    challenge,
    /** Follows the consent page's answer back to the tool; answers the callback URL. */
    async finish(redirectTo: string) {
      let next = await go(redirectTo);
      for (let hops = 0; next.href.split('?')[0] !== CONSOLE_CLI.redirect && hops < 5; hops++) next = await go(next.href);
      return next;
    },
    /** The tool exchanges the callback's code for tokens. */
    exchange: (callback: URL) => oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state }),
    state,
  };
}

import { Configuration, OAuth2Api } from '@ory/client';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { call, newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { startTestStack } from '../test-support/control-plane';

// RP-initiated logout of a project's OAuth2 server, driven by openid-client as the relying party: the end-session
// request becomes Hydra's logout request, which the project's logout page reads, accepts or rejects through the
// admin API; every answer is checked against Ory's OpenAPI.

const REDIRECT = 'http://127.0.0.1:1/callback';
const LOGOUT_PAGE = 'http://127.0.0.1:1/logout';
const AFTER_LOGOUT = 'http://127.0.0.1:1/signed-out';
const PROJECT_AFTER_LOGOUT = 'http://127.0.0.1:1/project-signed-out';

let stack: LocalStack;
let owner: TestUser;
let project: TestProject;
let oauth2: OAuth2Api;
let config: oidc.Configuration;

/** A browser: keeps the cookies each answer sets and follows nothing by itself. */
function browser() {
  const jar = new Map<string, string>();
  return async (url: string, form?: Record<string, string>) => {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { method: 'POST', body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      if (/expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, pair.slice(pair.indexOf('=') + 1));
    }
    return res;
  };
}

const location = (res: Response) => new URL(res.headers.get('location')!);

/** Signs `subject` in through the admin login and consent requests; answers the browser and its ID token. */
async function signIn(subject: string) {
  const go = browser();
  const verifier = oidc.randomPKCECodeVerifier();
  const toLogin = location(
    await go(
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: 'openid',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'in',
      }).href,
    ),
  );
  const loginChallenge = toLogin.searchParams.get('login_challenge')!;
  const { data: login } = await oauth2.acceptOAuth2LoginRequest({ loginChallenge, acceptOAuth2LoginRequest: { subject, remember: true } });
  const consentChallenge = location(await go(login.redirect_to)).searchParams.get('consent_challenge')!;
  const { data: consent } = await oauth2.acceptOAuth2ConsentRequest({ consentChallenge, acceptOAuth2ConsentRequest: { grant_scope: ['openid'] } });
  const tokens = await oidc.authorizationCodeGrant(config, location(await go(consent.redirect_to)), { pkceCodeVerifier: verifier, expectedState: 'in' });
  return { go, idToken: tokens.id_token! };
}

/** Whether the browser still has a session: a forced login's request says whether the user is known already. */
async function signedIn(go: ReturnType<typeof browser>) {
  const toLogin = location(await go(oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 'again', prompt: 'login', code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' }).href));
  const { data } = await oauth2.getOAuth2LoginRequest({ loginChallenge: toLogin.searchParams.get('login_challenge')! });
  return data.skip;
}

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'Owner');
  project = await projectWithKey(stack, owner, 'Logout');
  await owner.projects.patchProject({
    projectId: project.id,
    jsonPatch: [{ op: 'add', path: '/services/oauth2/config/urls', value: { logout: LOGOUT_PAGE, post_logout_redirect: PROJECT_AFTER_LOGOUT } }],
  });
  oauth2 = new OAuth2Api(new Configuration({ basePath: project.base, accessToken: project.key }));
  const { data: client } = await oauth2.createOAuth2Client({
    oAuth2Client: { client_name: 'Shop', redirect_uris: [REDIRECT], post_logout_redirect_uris: [AFTER_LOGOUT], scope: 'openid' },
  });
  config = await oidc.discovery(new URL(project.base), client.client_id!, { redirect_uris: [REDIRECT] }, oidc.ClientSecretBasic(client.client_secret!), {
    execute: [oidc.allowInsecureRequests],
  });
});

afterAll(async () => {
  await stack?.close();
});

describe("a project's logout requests", () => {
  it('sends an RP-initiated logout to the logout page, which rejects it (still signed in) or accepts it (signed out)', async () => {
    const { go, idToken } = await signIn('shopper-1');
    const endSession = oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: AFTER_LOGOUT, state: 'bye' });
    const toLogoutPage = await go(endSession.href);
    expect(toLogoutPage.status).toBe(302);
    const page = location(toLogoutPage);
    expect(`${page.origin}${page.pathname}`).toBe(LOGOUT_PAGE);
    const logoutChallenge = page.searchParams.get('logout_challenge')!;

    const { data: request } = await oauth2.getOAuth2LogoutRequest({ logoutChallenge });
    expect(request).toMatchObject({ challenge: logoutChallenge, subject: 'shopper-1', rp_initiated: true, client: { client_id: config.clientMetadata().client_id, client_name: 'Shop' } });
    expect(request.client).not.toHaveProperty('client_secret');
    expect(request.sid).toBeTruthy();
    expect(request.request_url).toContain('/oauth2/sessions/logout');
    expect(Date.parse(request.expires_at!) - Date.parse(request.requested_at!)).toBe(30 * 60 * 1000);

    // Rejecting leaves the session as it was: Hydra answers 204 and the logout page decides what comes next.
    expect((await oauth2.rejectOAuth2LogoutRequest({ logoutChallenge })).status).toBe(204);
    expect(await signedIn(go)).toBe(true);

    const { data: accepted } = await oauth2.acceptOAuth2LogoutRequest({ logoutChallenge });
    const back = new URL(accepted.redirect_to);
    expect(`${back.origin}${back.pathname}`).toBe(`${project.base}/oauth2/sessions/logout`);
    const verifier = back.searchParams.get('logout_verifier')!;
    const done = await go(accepted.redirect_to);
    expect(done.status).toBe(303);
    expect(done.headers.get('location')).toBe(`${AFTER_LOGOUT}?state=bye`);
    expect(await signedIn(go)).toBe(false);

    // The verifier and the request were used up.
    const reused = await go(`${project.base}/oauth2/sessions/logout?logout_verifier=${verifier}`);
    expect(reused.status).toBe(302);
    const error = location(reused);
    expect(`${error.origin}${error.pathname}`).toBe(`${project.base}/ui/error`);
    expect(Object.fromEntries(error.searchParams)).toEqual({ error: 'Not Found', error_description: 'Unable to locate the requested resource' });
    expect((await call(project.base, 'GET', `/admin/oauth2/auth/requests/logout?logout_challenge=${logoutChallenge}`, { key: project.key })).status).toBe(404);
  });

  it("lands on the project's post-logout URL when the relying party names none", async () => {
    const { go, idToken } = await signIn('shopper-2');
    const logoutChallenge = location(await go(oidc.buildEndSessionUrl(config, { id_token_hint: idToken }).href)).searchParams.get('logout_challenge')!;
    // Hydra also reads the challenge from `challenge`.
    const accepted = await call(project.base, 'PUT', `/admin/oauth2/auth/requests/logout/accept?challenge=${logoutChallenge}`, { key: project.key });
    expect(accepted.status).toBe(200);
    const done = await go(accepted.body.redirect_to);
    expect(location(done).href).toBe(PROJECT_AFTER_LOGOUT);
  });

  it("answers on the project's hosted logout page while the project names none: stay signed in, or sign out", async () => {
    await owner.projects.patchProject({ projectId: project.id, jsonPatch: [{ op: 'remove', path: '/services/oauth2/config/urls/logout' }] });
    const { go, idToken } = await signIn('shopper-4');
    const toPage = location(await go(oidc.buildEndSessionUrl(config, { id_token_hint: idToken, post_logout_redirect_uri: AFTER_LOGOUT }).href));
    expect(`${toPage.origin}${toPage.pathname}`).toBe(`${project.base}/ui/logout`);
    const form = async () => {
      const page = await go(toPage.href);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('Shop asks to sign you out.');
      return {
        logout_challenge: /name="logout_challenge" value="([^"]+)"/.exec(html)![1]!,
        csrf_token: /name="csrf_token" value="([^"]+)"/.exec(html)![1]!,
      };
    };
    const stayed = await go(`${project.base}/ui/logout`, { ...(await form()), action: 'reject' });
    expect(await stayed.text()).toContain('You are still signed in.');
    expect(await signedIn(go)).toBe(true);
    const left = await go(`${project.base}/ui/logout`, { ...(await form()), action: 'accept' });
    expect(left.status).toBe(303);
    expect(location(await go(location(left).href)).href).toBe(AFTER_LOGOUT);
    expect(await signedIn(go)).toBe(false);
  });

  it('refuses unknown challenges, other projects and strangers, and expired requests', async () => {
    const notFound = { error: 'Not Found', error_description: 'Unable to locate the requested resource' };
    for (const [method, path] of [
      ['GET', '/admin/oauth2/auth/requests/logout?logout_challenge=nope'],
      ['PUT', '/admin/oauth2/auth/requests/logout/accept?logout_challenge=nope'],
      ['PUT', '/admin/oauth2/auth/requests/logout/reject'],
    ] as const) {
      const answer = await call(project.base, method, path, { key: project.key });
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual(notFound);
    }
    const { go, idToken } = await signIn('shopper-3');
    const logoutChallenge = location(await go(oidc.buildEndSessionUrl(config, { id_token_hint: idToken }).href)).searchParams.get('logout_challenge')!;
    const stranger = await newUser(stack, 'Stranger');
    const elsewhere = await projectWithKey(stack, stranger, 'Elsewhere');
    expect((await call(elsewhere.base, 'GET', `/admin/oauth2/auth/requests/logout?logout_challenge=${logoutChallenge}`, { key: elsewhere.key })).status).toBe(404);
    expect((await call(project.base, 'GET', `/admin/oauth2/auth/requests/logout?logout_challenge=${logoutChallenge}`, { cookie: stranger.cookie })).status).toBe(403);

    stack.clock.advance(31 * 60 * 1000);
    const expired = await call(project.base, 'PUT', `/admin/oauth2/auth/requests/logout/accept?logout_challenge=${logoutChallenge}`, { key: project.key });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({
      error: 'request_unauthorized',
      error_description: 'The request could not be authorized. The logout request has expired, please try the flow again.',
    });
  });
});

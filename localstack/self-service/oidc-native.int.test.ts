import { Configuration, OAuth2Api } from '@ory/client';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { adminApis, call, newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { startTestStack } from '../test-support/control-plane';

// A native app signs people in to project B with an ID token it got from the provider's own SDK (Kratos'
// `id_token` and `id_token_nonce` on the `oidc` method). Project A's OAuth2 server plays the provider: the
// "SDK" here is an authorization code grant at A with the app's nonce, played through A's admin API, and the
// token it answers is what the app submits to B's API flows. B verifies it against A's published keys.

let stack: LocalStack;
let owner: TestUser;
let idp: TestProject;
let app: TestProject;
let hydra: OAuth2Api;
let nativeClient: { id: string; secret: string };
let otherClient: { id: string; secret: string };
const APP_REDIRECT = 'http://127.0.0.1/native-app/callback';

const location = (res: Response) => new URL(res.headers.get('location') ?? 'about:blank');

/** The provider's SDK: signs `subject` in at A and answers the ID token A issues to `client`, with `nonce` if given. */
async function idTokenFor(subject: string, claims: Record<string, unknown>, opts: { nonce?: string; client?: { id: string; secret: string } } = {}): Promise<string> {
  const client = opts.client ?? nativeClient;
  const jar = new Map<string, string>();
  const go = async (url: string) => {
    const res = await fetch(url, { headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') }, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    return location(res);
  };
  const auth = new URL(`${idp.base}/oauth2/auth`);
  auth.search = new URLSearchParams({
    client_id: client.id,
    response_type: 'code',
    scope: 'openid email profile',
    redirect_uri: APP_REDIRECT,
    state: 'app-state-0123456789',
    ...(opts.nonce ? { nonce: opts.nonce } : {}),
  }).toString();
  const loginChallenge = (await go(auth.href)).searchParams.get('login_challenge')!;
  const { data: login } = await hydra.acceptOAuth2LoginRequest({ loginChallenge, acceptOAuth2LoginRequest: { subject } });
  const consentChallenge = (await go(login.redirect_to)).searchParams.get('consent_challenge')!;
  const { data: consent } = await hydra.acceptOAuth2ConsentRequest({
    consentChallenge,
    acceptOAuth2ConsentRequest: { grant_scope: ['openid', 'email', 'profile'], session: { id_token: claims } },
  });
  const back = await go(consent.redirect_to);
  expect(back.href.startsWith(APP_REDIRECT)).toBe(true);
  const token = await fetch(`${idp.base}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code')!, redirect_uri: APP_REDIRECT }).toString(),
  });
  expect(token.status).toBe(200);
  return ((await token.json()) as { id_token: string }).id_token;
}

const apiFlow = async (kind: 'login' | 'registration') => {
  const flow = await call(app.base, 'GET', `/self-service/${kind}/api`);
  expect(flow.status).toBe(200);
  return flow.body;
};
const submit = (kind: 'login' | 'registration', flowId: string, body: Record<string, unknown>) => call(app.base, 'POST', `/self-service/${kind}?flow=${flowId}`, { body });
const whoami = (token: string) => call(app.base, 'GET', '/sessions/whoami', { headers: { 'x-session-token': token } });

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'NativeFederation');
  idp = await projectWithKey(stack, owner, 'Identity provider');
  app = await projectWithKey(stack, owner, 'Native application');
  hydra = new OAuth2Api(new Configuration({ basePath: idp.base, accessToken: idp.key }));
  const client = async (name: string) => {
    const { data } = await hydra.createOAuth2Client({
      oAuth2Client: { client_name: name, redirect_uris: [APP_REDIRECT], grant_types: ['authorization_code'], response_types: ['code'], scope: 'openid email profile' },
    });
    return { id: data.client_id!, secret: data.client_secret! };
  };
  nativeClient = await client('Native app');
  otherClient = await client('Another app');
  // Google and Apple are the kinds Kratos verifies ID tokens of; their issuer is A's here (issuer_url), so A's keys sign.
  const provider = (id: string, kind: string) => ({ id, provider: kind, client_id: nativeClient.id, client_secret: nativeClient.secret, issuer_url: idp.base, scope: ['openid', 'email'] });
  const patched = await owner.projects.patchProject({
    projectId: app.id,
    jsonPatch: [
      {
        op: 'add',
        path: '/services/identity/config/selfservice',
        value: { methods: { oidc: { enabled: true, config: { providers: [provider('google', 'google'), provider('apple', 'apple'), provider('acme', 'generic')] } } } },
      },
    ],
  });
  expect(patched.status).toBe(200);
});

afterAll(async () => {
  await stack?.close();
});

describe('native sign-in with an ID token from the provider', () => {
  it('registers from the token on an API registration flow, then signs in with a new token on an API login flow', async () => {
    const reg = await apiFlow('registration');
    const token = await idTokenFor('ann-sub', { email: 'Ann@Example.com', email_verified: true, name: 'Ann Native' }, { nonce: 'nonce-registration-1' });
    const registered = await submit('registration', reg.id, { method: 'oidc', provider: 'google', id_token: token, id_token_nonce: 'nonce-registration-1' });
    expect(registered.status).toBe(200);
    expect(registered.body.session_token).toMatch(/^ory_st_/);
    expect(registered.body.identity.traits).toMatchObject({ email: 'Ann@Example.com', name: 'Ann Native' });
    expect(registered.body.continue_with).toEqual([{ action: 'set_ory_session_token', ory_session_token: registered.body.session_token }]);
    expect(registered.headers.getSetCookie()).toEqual([]);
    const me = await whoami(registered.body.session_token);
    expect(me.status).toBe(200);
    expect(me.body.authentication_methods[0].method).toBe('oidc');
    const { data: stored } = await adminApis(app, app.key).identity.getIdentity({ id: registered.body.identity.id, includeCredential: ['oidc'] });
    expect(stored.credentials?.oidc?.identifiers).toEqual(['google:ann-sub']);
    expect(stored.verifiable_addresses?.[0]).toMatchObject({ value: 'ann@example.com', verified: true });

    const login = await apiFlow('login');
    const again = await idTokenFor('ann-sub', { email: 'ann@example.com' }, { nonce: 'nonce-login-2' });
    const signedIn = await submit('login', login.id, { method: 'oidc', provider: 'google', id_token: again, id_token_nonce: 'nonce-login-2' });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.session.identity.id).toBe(registered.body.identity.id);
    expect((await whoami(signedIn.body.session_token)).body.identity.id).toBe(registered.body.identity.id);
  });

  it('signs a new subject up from an API login flow', async () => {
    const login = await apiFlow('login');
    // An unlabelled provider's button names its id, as Kratos' does.
    expect(login.ui.nodes.find((n: any) => n.group === 'oidc' && n.attributes.value === 'google').meta.label).toMatchObject({ id: 1010002, text: 'Sign in with google' });
    const token = await idTokenFor('ben-sub', { email: 'ben@example.com', name: 'Ben' }, { nonce: 'nonce-ben' });
    const res = await submit('login', login.id, { method: 'oidc', provider: 'google', id_token: token, id_token_nonce: 'nonce-ben' });
    expect(res.status).toBe(200);
    expect(res.body.identity.traits.email).toBe('ben@example.com');
    expect((await whoami(res.body.session_token)).status).toBe(200);
  });

  it('refuses tokens it cannot trust, with Kratos reasons, and signs no one in', async () => {
    const { identity } = adminApis(app, app.key);
    const before = (await identity.listIdentities()).data.length;
    const good = await idTokenFor('eve-sub', { email: 'eve@example.com' }, { nonce: 'nonce-eve' });
    const attempt = async (body: Record<string, unknown>) => submit('registration', (await apiFlow('registration')).id, { method: 'oidc', ...body });

    const generic = await attempt({ provider: 'acme', id_token: good, id_token_nonce: 'nonce-eve' });
    expect(generic.status).toBe(502);
    expect(generic.body.error.reason).toBe('The provider generic does not support id_token verification');

    const mismatch = await attempt({ provider: 'google', id_token: good, id_token_nonce: 'another-nonce' });
    expect(mismatch.status).toBe(502);
    expect(mismatch.body.error.reason).toBe('The supplied nonce does not match the nonce from the id_token');

    const noNonce = await attempt({ provider: 'google', id_token: good });
    expect(noNonce.status).toBe(502);
    expect(noNonce.body.error.reason).toBe('No nonce was provided but is required by the provider');

    // Signed by a key that is not the provider's, though it names the provider as issuer and the client as audience.
    const { privateKey, publicKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT({ email: 'eve@example.com', nonce: 'nonce-eve' })
      .setProtectedHeader({ alg: 'RS256', kid: (await exportJWK(publicKey)).n!.slice(0, 16) })
      .setIssuer(idp.base)
      .setSubject('ann-sub')
      .setAudience(nativeClient.id)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(privateKey);
    const forgedRes = await attempt({ provider: 'google', id_token: forged, id_token_nonce: 'nonce-eve' });
    expect(forgedRes.status).toBe(403);
    expect(forgedRes.body.error.reason).toBe('Could not verify id_token');

    // A genuine token of the provider, issued to another app.
    const foreign = await idTokenFor('eve-sub', { email: 'eve@example.com' }, { nonce: 'nonce-eve', client: otherClient });
    const foreignRes = await attempt({ provider: 'google', id_token: foreign, id_token_nonce: 'nonce-eve' });
    expect(foreignRes.status).toBe(403);
    expect(foreignRes.body.error.reason).toBe('Could not verify id_token');
    expect(foreignRes.body.error.message).toContain('aud');

    const garbage = await attempt({ provider: 'google', id_token: 'not-a-token', id_token_nonce: 'nonce-eve' });
    expect(garbage.status).toBe(403);

    const unknown = await attempt({ provider: 'nobody', id_token: good, id_token_nonce: 'nonce-eve' });
    expect(unknown.status).toBe(404);

    expect((await identity.listIdentities()).data.length).toBe(before);
  });

  it('accepts a token without a nonce from Google, and from Apple when the device set none, as Kratos does', async () => {
    const token = await idTokenFor('gus-sub', { email: 'gus@example.com' });
    const res = await submit('registration', (await apiFlow('registration')).id, { method: 'oidc', provider: 'google', id_token: token });
    expect(res.status).toBe(200);
    expect(res.body.identity.traits.email).toBe('gus@example.com');
    // Apple's token says `nonce_supported: true` when the device set one; this one does not.
    const apple = await idTokenFor('gus-apple-sub', { email: 'gus.apple@example.com' });
    const viaApple = await submit('registration', (await apiFlow('registration')).id, { method: 'oidc', provider: 'apple', id_token: apple });
    expect(viaApple.status).toBe(200);
    expect(viaApple.body.identity.traits.email).toBe('gus.apple@example.com');
  });

  it('asks for the traits the token lacks on the API registration flow, then registers with them', async () => {
    const reg = await apiFlow('registration');
    const token = await idTokenFor('nomail-sub', { name: 'No Mail' }, { nonce: 'nonce-nomail' });
    const first = await submit('registration', reg.id, { method: 'oidc', provider: 'google', id_token: token, id_token_nonce: 'nonce-nomail' });
    expect(first.status).toBe(400);
    expect(first.body.id).toBe(reg.id);
    const email = first.body.ui.nodes.find((n: any) => n.attributes.name === 'traits.email');
    expect(email.messages).toEqual([expect.objectContaining({ id: 4000002, text: 'Property email is missing.' })]);
    expect(first.body.ui.nodes.find((n: any) => n.attributes.name === 'csrf_token')).toBeUndefined();
    expect(first.body.ui.nodes.find((n: any) => n.group === 'oidc').meta.label).toMatchObject({ id: 1040003, text: 'Continue' });

    const done = await submit('registration', reg.id, { method: 'oidc', provider: 'google', id_token: token, id_token_nonce: 'nonce-nomail', traits: { email: 'nomail@example.com', name: 'No Mail' } });
    expect(done.status).toBe(200);
    expect(done.body.identity.traits.email).toBe('nomail@example.com');
    expect(done.body.session_token).toMatch(/^ory_st_/);
  });

  it('answers an email of a password account with a native login flow that links the provider', async () => {
    const reg = await apiFlow('registration');
    const created = await submit('registration', reg.id, { method: 'password', traits: { email: 'cleo@example.com', name: 'Cleo' }, password: 'a-long-and-unusual-passphrase-44' });
    expect(created.status).toBe(200);

    const token = await idTokenFor('cleo-sub', { email: 'cleo@example.com', name: 'Cleo' }, { nonce: 'nonce-cleo' });
    const res = await submit('registration', (await apiFlow('registration')).id, { method: 'oidc', provider: 'google', id_token: token, id_token_nonce: 'nonce-cleo' });
    expect(res.status).toBe(400);
    expect(res.body.type).toBe('api');
    expect(res.body.ui.action).toContain('/self-service/login?flow=');
    // Kratos names an unlabelled provider by its kind here.
    expect(res.body.ui.messages[0]).toMatchObject({ id: 1010016, context: { duplicateIdentifier: 'cleo@example.com', provider: 'google' } });
    const linked = await submit('login', res.body.id, { method: 'password', identifier: 'cleo@example.com', password: 'a-long-and-unusual-passphrase-44' });
    expect(linked.status).toBe(200);
    const { data: cleo } = await adminApis(app, app.key).identity.getIdentity({ id: created.body.identity.id });
    expect(cleo.credentials?.oidc?.identifiers).toEqual(['google:cleo-sub']);

    // From now on the token signs Cleo in.
    const again = await idTokenFor('cleo-sub', { email: 'cleo@example.com' }, { nonce: 'nonce-cleo-2' });
    const signedIn = await submit('login', (await apiFlow('login')).id, { method: 'oidc', provider: 'google', id_token: again, id_token_nonce: 'nonce-cleo-2' });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.session.identity.id).toBe(created.body.identity.id);
  });

  it('takes an ID token on a browser flow too, answering the session and setting the cookie', async () => {
    const started = await fetch(`${app.base}/self-service/registration/browser`, { headers: { accept: 'application/json' } });
    const flow = (await started.json()) as any;
    const cookie = started.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    const token = await idTokenFor('dee-sub', { email: 'dee@example.com' }, { nonce: 'nonce-dee' });
    const csrf = flow.ui.nodes.find((n: any) => n.attributes.name === 'csrf_token').attributes.value;
    const res = await call(app.base, 'POST', `/self-service/registration?flow=${flow.id}`, {
      cookie,
      body: { method: 'oidc', provider: 'google', id_token: token, id_token_nonce: 'nonce-dee', csrf_token: csrf },
    });
    expect(res.status).toBe(200);
    expect(res.body.session_token).toBeUndefined();
    expect(res.body.continue_with[0].action).toBe('redirect_browser_to');
    expect(res.headers.getSetCookie().some((c) => c.startsWith('ory_session_'))).toBe(true);
  });

  it("accepts no token of this provider on another project that has not configured it", async () => {
    const other = await projectWithKey(stack, owner, 'Unrelated application');
    const flow = await call(other.base, 'GET', '/self-service/registration/api');
    const token = await idTokenFor('fay-sub', { email: 'fay@example.com' }, { nonce: 'nonce-fay' });
    const res = await call(other.base, 'POST', `/self-service/registration?flow=${flow.body.id}`, { body: { method: 'oidc', provider: 'google', id_token: token, id_token_nonce: 'nonce-fay' } });
    expect(res.status).toBe(404);
    expect((await adminApis(other, other.key).identity.listIdentities()).data).toEqual([]);
  });
});

import { Configuration, OAuth2Api, OidcApi } from '@ory/client';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { call, newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { startTestStack } from '../test-support/control-plane';
import { dayOf, usageBetween } from '../billing/usage';

// Each project of the local stack is an OAuth2 and OpenID Connect server on its data plane, with Hydra's
// admin API behind its key or a member's session; every answer here is checked against Ory's OpenAPI.

const REDIRECT = 'http://127.0.0.1:1/callback';
let stack: LocalStack;
let owner: TestUser;
let stranger: TestUser;
let project: TestProject;
let other: TestProject;

const hydra = (p: Pick<TestProject, 'base'>, accessToken: string) => {
  const configuration = new Configuration({ basePath: p.base, accessToken });
  return { oauth2: new OAuth2Api(configuration), oidc: new OidcApi(configuration) };
};

const relyingParty = (p: TestProject, clientId: string, secret: string) =>
  oidc.discovery(new URL(p.base), clientId, { redirect_uris: [REDIRECT] }, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });

/** The OAuth error of a refused token request, whether in the body or a WWW-Authenticate challenge. */
const oauthError = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    const e = err as { error?: string; cause?: Array<{ parameters?: { error?: string } }> };
    return e.error ?? e.cause?.[0]?.parameters?.error;
  }
  throw new Error('expected the token request to fail');
};

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'Owner');
  stranger = await newUser(stack, 'Stranger');
  project = await projectWithKey(stack, owner, 'OAuth');
  other = await projectWithKey(stack, stranger, 'Elsewhere');
});

afterAll(async () => {
  await stack?.close();
});

describe("a project's OAuth2 server in the local stack", () => {
  it('keeps clients in the database and issues client-credentials tokens that follow the project config', async () => {
    const { oauth2 } = hydra(project, project.key);
    const created = await oauth2.createOAuth2Client({ oAuth2Client: { client_name: 'Worker', grant_types: ['client_credentials'], scope: 'jobs:run' } });
    expect(created.status).toBe(201);
    const clientId = created.data.client_id!;
    const config = await relyingParty(project, clientId, created.data.client_secret!);
    const first = await oidc.clientCredentialsGrant(config, { scope: 'jobs:run' });
    expect(first.expires_in).toBe(3600);
    expect((await oauth2.introspectOAuth2Token({ token: first.access_token })).data).toMatchObject({ active: true, client_id: clientId, scope: 'jobs:run' });

    // A changed lifespan and strategy hold from the next request on.
    const patched = await owner.projects.patchProject({
      projectId: project.id,
      jsonPatch: [
        { op: 'add', path: '/services/oauth2/config/ttl', value: { access_token: '5m' } },
        { op: 'add', path: '/services/oauth2/config/strategies', value: { access_token: 'jwt' } },
      ],
    });
    expect(patched.status).toBe(200);
    const second = await oidc.clientCredentialsGrant(await relyingParty(project, clientId, created.data.client_secret!), { scope: 'jobs:run' });
    expect(second.expires_in).toBe(300);
    const { payload } = await jwtVerify(second.access_token, createRemoteJWKSet(new URL(`${project.base}/.well-known/jwks.json`)), { issuer: project.base });
    expect(payload).toMatchObject({ client_id: clientId, scope: 'jobs:run' });
    expect(payload.exp! - payload.iat!).toBe(300);
  });

  it('runs the authorization-code flow with PKCE through its admin login and consent requests', async () => {
    const { oauth2 } = hydra(project, project.key);
    const { data: client } = await oauth2.createOAuth2Client({
      oAuth2Client: { client_name: 'Web', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'openid offline_access email' },
    });
    const config = await relyingParty(project, client.client_id!, client.client_secret!);
    const jar = new Map<string, string>();
    const go = async (url: string) => {
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const line of res.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      return new URL(res.headers.get('location')!);
    };
    const verifier = oidc.randomPKCECodeVerifier();
    const toLogin = await go(
      oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: 'openid offline_access email',
        prompt: 'consent',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'xyz',
      }).href,
    );
    const loginChallenge = toLogin.searchParams.get('login_challenge')!;
    expect(loginChallenge).toBeTruthy();
    const { data: login } = await oauth2.acceptOAuth2LoginRequest({ loginChallenge, acceptOAuth2LoginRequest: { subject: 'end-user-1' } });
    const consentChallenge = (await go(login.redirect_to)).searchParams.get('consent_challenge')!;
    const { data: consent } = await oauth2.acceptOAuth2ConsentRequest({
      consentChallenge,
      acceptOAuth2ConsentRequest: { grant_scope: ['openid', 'offline_access', 'email'], session: { id_token: { email: 'end@example.com' } } },
    });
    const callback = await go(consent.redirect_to);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'xyz' });
    expect(tokens.claims()).toMatchObject({ sub: 'end-user-1', email: 'end@example.com', iss: project.base });
    expect(await oidc.fetchUserInfo(config, tokens.access_token, 'end-user-1')).toMatchObject({ email: 'end@example.com' });
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(decodeJwt(refreshed.id_token!).sub).toBe('end-user-1');
    await oidc.tokenRevocation(config, refreshed.access_token);
    expect((await oauth2.introspectOAuth2Token({ token: refreshed.access_token })).data).toEqual({ active: false });
  });

  it("keeps a project's clients and tokens from every other project and caller", async () => {
    const { oauth2 } = hydra(project, project.key);
    const { data: client } = await oauth2.createOAuth2Client({ oAuth2Client: { client_name: 'Mine', grant_types: ['client_credentials'] } });
    // Another project's key is no credential here; its own project does not know the client.
    expect((await call(project.base, 'GET', '/admin/clients', { key: other.key })).status).toBe(401);
    expect((await call(other.base, 'GET', `/admin/clients/${client.client_id}`, { key: other.key })).status).toBe(404);
    const elsewhere = await oidc.discovery(new URL(other.base), client.client_id!, {}, oidc.ClientSecretBasic(client.client_secret!), {
      execute: [oidc.allowInsecureRequests],
    });
    expect(await oauthError(oidc.clientCredentialsGrant(elsewhere))).toBe('invalid_client');
    // A member's console session reads the clients; a stranger's is refused.
    const asMember = await call(project.base, 'GET', '/admin/clients', { cookie: owner.cookie });
    expect(asMember.status).toBe(200);
    expect(asMember.body.map((c: { client_id: string }) => c.client_id)).toContain(client.client_id);
    expect((await call(project.base, 'GET', '/admin/clients', { cookie: stranger.cookie })).status).toBe(403);
  });

  it('deletes a client with its tokens, in one step', async () => {
    const { oauth2 } = hydra(project, project.key);
    const { data: client } = await oauth2.createOAuth2Client({ oAuth2Client: { grant_types: ['client_credentials'] } });
    const tokens = await oidc.clientCredentialsGrant(await relyingParty(project, client.client_id!, client.client_secret!));
    expect((await oauth2.deleteOAuth2Client({ id: client.client_id! })).status).toBe(204);
    expect((await oauth2.introspectOAuth2Token({ token: tokens.access_token })).data).toEqual({ active: false });
  });

  it("counts every issued token into the project's m2m_token_issuance usage, and only there", async () => {
    const { oauth2 } = hydra(project, project.key);
    const day = dayOf(stack.clock.now());
    const next = dayOf(new Date(stack.clock.now().getTime() + 86_400_000));
    const issued = async (p: TestProject) => (await usageBetween(stack.db, [p.id], day, next)).tokensIssued;
    const [before, otherBefore] = [await issued(project), await issued(other)];
    const { data: client } = await oauth2.createOAuth2Client({ oAuth2Client: { grant_types: ['client_credentials'] } });
    const config = await relyingParty(project, client.client_id!, client.client_secret!);
    for (let i = 0; i < 3; i++) await oidc.clientCredentialsGrant(config);
    // A refused token request issues nothing.
    await oauthError(oidc.clientCredentialsGrant(await relyingParty(project, client.client_id!, 'wrong')));
    await expect.poll(() => issued(project), { timeout: 5000 }).toBe(before + 3);
    expect(await issued(other)).toBe(otherBefore);
  });
});

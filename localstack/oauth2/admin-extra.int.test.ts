import { Configuration, JwkApi, OAuth2Api } from '@ory/client';
import { decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { call, newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { startTestStack } from '../test-support/control-plane';

// The rest of Hydra's admin API of a project, against the real stack with @ory/client and a project key: every
// answer is checked against Ory's OpenAPI by the suite.

const REDIRECT = 'http://127.0.0.1:1/callback';
let stack: LocalStack;
let owner: TestUser;
let project: TestProject;
let other: TestProject;

const apis = (p: Pick<TestProject, 'base'>, accessToken: string) => {
  const configuration = new Configuration({ basePath: p.base, accessToken });
  return { oauth2: new OAuth2Api(configuration), jwk: new JwkApi(configuration) };
};

const relyingParty = (p: TestProject, clientId: string, secret: string) =>
  oidc.discovery(new URL(p.base), clientId, { redirect_uris: [REDIRECT] }, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    const response = (err as { response?: { status: number; data: unknown } }).response;
    if (response && 'data' in response) return { status: response.status, data: response.data as Record<string, unknown> };
    return { status: 0, data: { error: (err as { error?: string }).error ?? (err as { cause?: Array<{ parameters?: { error?: string } }> }).cause?.[0]?.parameters?.error } };
  }
  throw new Error('expected the call to fail');
};

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'KeysOwner');
  const stranger = await newUser(stack, 'KeysStranger');
  [project, other] = await Promise.all([projectWithKey(stack, owner, 'Keys'), projectWithKey(stack, stranger, 'Other keys')]);
});

afterAll(async () => {
  await stack?.close();
});

/** Runs an authorization-code flow for `subject` and answers its tokens. */
async function signIn(clientId: string, secret: string, subject: string) {
  const { oauth2 } = apis(project, project.key);
  const config = await relyingParty(project, clientId, secret);
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
      scope: 'openid offline_access',
      prompt: 'consent',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).href,
  );
  const { data: login } = await oauth2.acceptOAuth2LoginRequest({ loginChallenge: toLogin.searchParams.get('login_challenge')!, acceptOAuth2LoginRequest: { subject, remember: true } });
  const consentChallenge = (await go(login.redirect_to)).searchParams.get('consent_challenge')!;
  const { data: consent } = await oauth2.acceptOAuth2ConsentRequest({
    consentChallenge,
    acceptOAuth2ConsentRequest: { grant_scope: ['openid', 'offline_access'], remember: true, session: { id_token: { team: 'blue' } } },
  });
  return oidc.authorizationCodeGrant(config, await go(consent.redirect_to), { pkceCodeVerifier: verifier });
}

describe("a project's OAuth2 admin API beyond clients", () => {
  it("applies a client's own token lifespans and keeps rotated secrets until they are deleted", async () => {
    const { oauth2 } = apis(project, project.key);
    const { data: client } = await oauth2.createOAuth2Client({ oAuth2Client: { client_name: 'Lifespans', grant_types: ['client_credentials'] } });
    const id = client.client_id!;
    const { data: withLifespans } = await oauth2.setOAuth2ClientLifespans({ id, oAuth2ClientTokenLifespans: { client_credentials_grant_access_token_lifespan: '2m' } });
    expect(withLifespans.client_credentials_grant_access_token_lifespan).toBe('2m');
    expect(withLifespans.client_secret).toBeUndefined();
    expect((await oidc.clientCredentialsGrant(await relyingParty(project, id, client.client_secret!))).expires_in).toBe(120);
    expect(await failure(oauth2.setOAuth2ClientLifespans({ id, oAuth2ClientTokenLifespans: { implicit_grant_id_token_lifespan: 'soon' } }))).toMatchObject({ status: 400 });

    // The old secret still works after a rotation, and stops once the rotated secrets are deleted.
    const { data: rotatedClient } = await oauth2.rotateOAuth2ClientSecret({ id });
    expect(rotatedClient.client_secret).not.toBe(client.client_secret);
    await oidc.clientCredentialsGrant(await relyingParty(project, id, client.client_secret!));
    await oidc.clientCredentialsGrant(await relyingParty(project, id, rotatedClient.client_secret!));
    const { data: cleared } = await oauth2.deleteRotatedOAuth2ClientSecrets({ id });
    expect(cleared.client_secret).toBeUndefined();
    expect((await failure(oidc.clientCredentialsGrant(await relyingParty(project, id, client.client_secret!)))).data.error).toBe('invalid_client');
    await oidc.clientCredentialsGrant(await relyingParty(project, id, rotatedClient.client_secret!));

    const { data: publicClient } = await oauth2.createOAuth2Client({ oAuth2Client: { token_endpoint_auth_method: 'none', redirect_uris: [REDIRECT] } });
    expect(await failure(oauth2.rotateOAuth2ClientSecret({ id: publicClient.client_id! }))).toMatchObject({ status: 400 });
    expect(await failure(oauth2.setOAuth2ClientLifespans({ id: 'missing', oAuth2ClientTokenLifespans: {} }))).toMatchObject({ status: 404 });
  });

  it("lists a subject's consent sessions and revokes them with their tokens", async () => {
    const { oauth2 } = apis(project, project.key);
    const { data: client } = await oauth2.createOAuth2Client({
      oAuth2Client: { client_name: 'Consenting', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'openid offline_access' },
    });
    const tokens = await signIn(client.client_id!, client.client_secret!, 'subject-consent');
    const { data: sessions, headers } = await oauth2.listOAuth2ConsentSessions({ subject: 'subject-consent' });
    expect(headers.link).toContain('rel="first"');
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      grant_scope: expect.arrayContaining(['openid', 'offline_access']),
      consent_request: { subject: 'subject-consent', client: { client_id: client.client_id } },
      session: { id_token: { team: 'blue' } },
    });
    expect((await oauth2.listOAuth2ConsentSessions({ subject: 'somebody-else' })).data).toEqual([]);
    expect(await failure(oauth2.revokeOAuth2ConsentSessions({ subject: 'subject-consent' }))).toMatchObject({ status: 400, data: { error: 'invalid_request' } });

    expect((await oauth2.revokeOAuth2ConsentSessions({ subject: 'subject-consent', client: client.client_id! })).status).toBe(204);
    expect((await oauth2.listOAuth2ConsentSessions({ subject: 'subject-consent' })).data).toEqual([]);
    expect((await oauth2.introspectOAuth2Token({ token: tokens.access_token })).data).toEqual({ active: false });
    expect((await oauth2.introspectOAuth2Token({ token: tokens.refresh_token! })).data).toEqual({ active: false });

    expect((await oauth2.revokeOAuth2LoginSessions({ subject: 'subject-consent' })).status).toBe(204);
    expect(await failure(oauth2.revokeOAuth2LoginSessions({}))).toMatchObject({ status: 400 });
  });

  it('keeps JSON Web Key sets, and the signing set signs tokens', async () => {
    const { jwk, oauth2 } = apis(project, project.key);
    const { data: created, status } = await jwk.createJsonWebKeySet({ set: 'partner', createJsonWebKeySet: { alg: 'ES256', use: 'sig', kid: 'partner-1' } });
    expect(status).toBe(201);
    expect(created.keys?.[0]).toMatchObject({ kid: 'partner-1', kty: 'EC', alg: 'ES256', use: 'sig' });
    const { publicKey } = await generateKeyPair('RS256', { extractable: true });
    const own = { ...(await exportJWK(publicKey)), kid: 'partner-2', alg: 'RS256', use: 'sig' };
    await jwk.setJsonWebKey({ set: 'partner', kid: 'partner-2', jsonWebKey: own as never });
    expect((await jwk.getJsonWebKeySet({ set: 'partner' })).data.keys?.map((k) => k.kid).sort()).toEqual(['partner-1', 'partner-2']);
    expect((await jwk.getJsonWebKey({ set: 'partner', kid: 'partner-2' })).data.keys?.[0]).toMatchObject({ kid: 'partner-2', n: own.n });
    await jwk.setJsonWebKeySet({ set: 'partner', jsonWebKeySet: { keys: [own as never] } });
    expect((await jwk.getJsonWebKeySet({ set: 'partner' })).data.keys?.map((k) => k.kid)).toEqual(['partner-2']);
    expect((await jwk.deleteJsonWebKey({ set: 'partner', kid: 'partner-2' })).status).toBe(204);
    expect(await failure(jwk.getJsonWebKeySet({ set: 'partner' }))).toMatchObject({ status: 404 });
    expect(await failure(jwk.createJsonWebKeySet({ set: 'partner', createJsonWebKeySet: { alg: 'none', use: 'sig', kid: 'x' } }))).toMatchObject({ status: 400 });
    expect(await failure(jwk.deleteJsonWebKeySet({ set: 'never-made' }))).toMatchObject({ status: 404 });

    // A key added to the signing set is published and signs the next JWT.
    const { data: signing } = await jwk.createJsonWebKeySet({ set: 'hydra.openid.id-token', createJsonWebKeySet: { alg: 'RS256', use: 'sig', kid: 'rotated-signer' } });
    expect(signing.keys?.[0]?.kid).toBe('rotated-signer');
    const published = (await call(project.base, 'GET', '/.well-known/jwks.json')).body as { keys: Array<{ kid: string; d?: string }> };
    expect(published.keys.map((k) => k.kid)).toContain('rotated-signer');
    expect(published.keys.every((k) => k.d === undefined)).toBe(true);
    const { data: client } = await oauth2.createOAuth2Client({ oAuth2Client: { grant_types: ['client_credentials'], access_token_strategy: 'jwt' } });
    const token = await oidc.clientCredentialsGrant(await relyingParty(project, client.client_id!, client.client_secret!));
    expect(decodeProtectedHeader(token.access_token).kid).toBe('rotated-signer');
    expect(await failure(jwk.createJsonWebKeySet({ set: 'hydra.openid.id-token', createJsonWebKeySet: { alg: 'ES256', use: 'sig', kid: 'ec' } }))).toMatchObject({ status: 400 });

    // Another project's key reaches none of it.
    expect((await call(project.base, 'GET', '/admin/keys/hydra.openid.id-token', { key: other.key })).status).toBe(401);
    expect((await call(other.base, 'GET', '/admin/keys/partner', { key: other.key })).status).toBe(404);
  });

  it('trusts JWT-grant issuers with their keys', async () => {
    const { oauth2, jwk } = apis(project, project.key);
    const { publicKey } = await generateKeyPair('RS256', { extractable: true });
    const key = { ...(await exportJWK(publicKey)), kid: 'issuer-key', alg: 'RS256', use: 'sig' };
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const body = { issuer: 'https://jwt-idp.example.com', subject: 'svc@example.com', scope: ['openid'], jwk: key as never, expires_at: expires };
    const { data: trusted, status } = await oauth2.trustOAuth2JwtGrantIssuer({ trustOAuth2JwtGrantIssuer: body });
    expect(status).toBe(201);
    expect(trusted).toMatchObject({ issuer: body.issuer, subject: body.subject, scope: ['openid'], allow_any_subject: false, public_key: { set: body.issuer, kid: 'issuer-key' } });
    expect(await failure(oauth2.trustOAuth2JwtGrantIssuer({ trustOAuth2JwtGrantIssuer: body }))).toMatchObject({ status: 409 });
    expect(
      await failure(oauth2.trustOAuth2JwtGrantIssuer({ trustOAuth2JwtGrantIssuer: { ...body, subject: undefined } as never })),
    ).toMatchObject({ status: 400, data: { error: 'missing_required_parameter' } });
    expect((await oauth2.listTrustedOAuth2JwtGrantIssuers({ issuer: body.issuer })).data.map((t) => t.id)).toEqual([trusted.id]);
    expect((await oauth2.getTrustedOAuth2JwtGrantIssuer({ id: trusted.id! })).data.expires_at).toBe(expires.replace(/\.\d+Z$/, 'Z'));
    expect((await jwk.getJsonWebKey({ set: body.issuer, kid: 'issuer-key' })).data.keys?.[0]).toMatchObject({ n: key.n });
    expect((await oauth2.deleteTrustedOAuth2JwtGrantIssuer({ id: trusted.id! })).status).toBe(204);
    expect(await failure(oauth2.getTrustedOAuth2JwtGrantIssuer({ id: trusted.id! }))).toMatchObject({ status: 404 });
    expect(await failure(jwk.getJsonWebKeySet({ set: body.issuer }))).toMatchObject({ status: 404 });
    expect((await call(other.base, 'GET', '/admin/trust/grants/jwt-bearer/issuers', { key: other.key })).body).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { Configuration, OAuth2Api } from '@ory/client';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { startTestStack } from '../test-support/control-plane';

// The device authorization grant (RFC 8628) and the JWT-bearer grant (RFC 7523) of a project's OAuth2 server,
// driven by openid-client as the device and the client, with Hydra's admin API (@ory/client) in between.

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

let stack: LocalStack;
let owner: TestUser;
let project: TestProject;
let other: TestProject;

const hydra = (p: TestProject) => new OAuth2Api(new Configuration({ basePath: p.base, accessToken: p.key }));

const relyingParty = (p: TestProject, clientId: string, secret: string) =>
  oidc.discovery(new URL(p.base), clientId, {}, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });

/** The OAuth error of a refused token request, with its description. */
const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    const e = err as { error?: string; error_description?: string };
    if (e.error) return { error: e.error, description: e.error_description ?? '' };
    throw err;
  }
  throw new Error('expected the token request to be refused');
};

/** A browser: follows nothing by itself, keeps its cookies. */
function browser() {
  const jar = new Map<string, string>();
  return async (url: string, form?: Record<string, string>) => {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { method: 'POST', body: new URLSearchParams(form).toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
    }
    const location = res.headers.get('location');
    return { status: res.status, location: location ? new URL(location, url) : null, text: await res.text() };
  };
}

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'Grants');
  project = await projectWithKey(stack, owner, 'Grants');
  other = await projectWithKey(stack, owner, 'Other grants');
});

afterAll(async () => {
  await stack?.close();
});

describe('the device authorization grant', () => {
  it('verifies the user code through the device request, signs the user in, and answers pending, slow_down, then tokens', async () => {
    const oauth2 = hydra(project);
    const { data: client } = await oauth2.createOAuth2Client({
      oAuth2Client: { client_name: 'TV app', grant_types: [DEVICE_CODE, 'refresh_token'], scope: 'openid offline_access tv:watch' },
    });
    const device = await relyingParty(project, client.client_id!, client.client_secret!);
    expect(device.serverMetadata().device_authorization_endpoint).toBe(`${project.base}/oauth2/device/auth`);

    const authorization = await oidc.initiateDeviceAuthorization(device, { scope: 'openid offline_access tv:watch' });
    expect(authorization).toMatchObject({ verification_uri: `${project.base}/oauth2/device/verify`, interval: 5 });
    expect(authorization.user_code).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);

    // The device polls before the user has done anything, then too soon.
    const poll = () => oidc.genericGrantRequest(device, DEVICE_CODE, { device_code: authorization.device_code });
    expect((await refusal(poll())).error).toBe('authorization_pending');
    expect(await refusal(poll())).toEqual({
      error: 'slow_down',
      description: "The authorization request was rate-limited to prevent system overload. Ensure that you don't call the token endpoint sooner than the polling interval",
    });

    // The user opens the verification URI: the project's device page, with a device challenge.
    const go = browser();
    const toPage = await go(authorization.verification_uri);
    expect(toPage.status).toBe(302);
    expect(toPage.location!.href.startsWith(`${project.base}/ui/device?`)).toBe(true);
    const challenge = toPage.location!.searchParams.get('device_challenge')!;
    const page = await go(toPage.location!.href);
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="user_code"');

    // A wrong code typed on the page is refused there, and by Hydra's API; the right one sends the browser on to sign in.
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const typo = await go(`${project.base}/ui/device`, { device_challenge: challenge, csrf_token: csrf, user_code: 'BCDF-GHJK' });
    expect(typo.status).toBe(400);
    expect(typo.text).toContain('That code is not known, has expired or was used already.');
    const typed = await go(`${project.base}/ui/device`, { device_challenge: challenge, csrf_token: csrf, user_code: authorization.user_code });
    expect(typed.status).toBe(303);
    expect(typed.location!.href).toContain(`${project.base}/oauth2/device/verify?device_verifier=`);
    const wrong = await oauth2.acceptUserCodeRequest({ deviceChallenge: challenge, acceptDeviceUserCodeRequest: { user_code: 'BCDF-GHJK' } }).catch((e) => e.response);
    expect(wrong.status).toBe(400);
    expect(wrong.data.error_description).toContain("The 'user_code' session could not be found or has expired or is otherwise malformed.");
    const { data: accepted } = await oauth2.acceptUserCodeRequest({
      deviceChallenge: challenge,
      acceptDeviceUserCodeRequest: { user_code: authorization.user_code.toLowerCase() },
    });
    expect(accepted.redirect_to).toContain(`${project.base}/oauth2/device/verify?device_verifier=`);
    const toLogin = await go(accepted.redirect_to);
    const loginChallenge = toLogin.location!.searchParams.get('login_challenge')!;
    expect(toLogin.location!.href.startsWith(`${project.base}/ui/login?`)).toBe(true);
    // A verifier works once.
    expect((await go(accepted.redirect_to)).status).toBe(404);

    const { data: login } = await oauth2.acceptOAuth2LoginRequest({ loginChallenge, acceptOAuth2LoginRequest: { subject: 'viewer-1' } });
    const consentChallenge = (await go(login.redirect_to)).location!.searchParams.get('consent_challenge')!;
    const { data: consentRequest } = await oauth2.getOAuth2ConsentRequest({ consentChallenge });
    expect(consentRequest.requested_scope).toEqual(['openid', 'offline_access', 'tv:watch']);
    const { data: consent } = await oauth2.acceptOAuth2ConsentRequest({
      consentChallenge,
      acceptOAuth2ConsentRequest: { grant_scope: ['openid', 'offline_access', 'tv:watch'] },
    });
    const done = await go(consent.redirect_to);
    expect(done.status).toBe(200);
    expect(done.text).toContain('return to the application');

    // The device's next poll, one interval later, gets its tokens.
    stack.clock.advance(6000);
    const tokens = await poll();
    expect(tokens.claims()).toMatchObject({ sub: 'viewer-1', iss: project.base, aud: client.client_id });
    expect(tokens.refresh_token).toBeTruthy();
    expect((await oauth2.introspectOAuth2Token({ token: tokens.access_token })).data).toMatchObject({ active: true, sub: 'viewer-1', scope: 'openid offline_access tv:watch' });
    // The code is used up.
    expect((await refusal(poll())).error).toBe('invalid_grant');
  });

  it("follows the project config's polling interval and user-code lifespan", async () => {
    const patched = await owner.projects.patchProject({
      projectId: other.id,
      jsonPatch: [
        { op: 'add', path: '/services/oauth2/config/oauth2', value: { device_authorization: { token_polling_interval: '10s' } } },
        { op: 'add', path: '/services/oauth2/config/ttl', value: { device_user_code: '5m' } },
      ],
    });
    expect(patched.status).toBe(200);
    const { data: client } = await hydra(other).createOAuth2Client({ oAuth2Client: { grant_types: [DEVICE_CODE] } });
    const device = await relyingParty(other, client.client_id!, client.client_secret!);
    const authorization = await oidc.initiateDeviceAuthorization(device, {});
    expect(authorization).toMatchObject({ interval: 10, expires_in: 300 });
    const poll = () => oidc.genericGrantRequest(device, DEVICE_CODE, { device_code: authorization.device_code });
    expect((await refusal(poll())).error).toBe('authorization_pending');
    // Six seconds are too soon now.
    stack.clock.advance(6000);
    expect((await refusal(poll())).error).toBe('slow_down');
  });
});

describe('the JWT-bearer grant', () => {
  const issuer = 'https://issuer.example.com';
  let signingKey: CryptoKey;
  let kid: string;
  let clientId: string;
  let secret: string;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true });
    signingKey = pair.privateKey;
    kid = randomUUID();
    const oauth2 = hydra(project);
    const trusted = await oauth2.trustOAuth2JwtGrantIssuer({
      trustOAuth2JwtGrantIssuer: {
        issuer,
        subject: 'service-account-1',
        scope: ['reports:read'],
        expires_at: new Date(stack.clock.now().getTime() + 86_400_000).toISOString(),
        jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: 'RS256', use: 'sig' } as never,
      },
    });
    expect(trusted.status).toBe(201);
    const { data: client } = await oauth2.createOAuth2Client({ oAuth2Client: { grant_types: [JWT_BEARER], scope: 'reports:read reports:write' } });
    clientId = client.client_id!;
    secret = client.client_secret!;
  });

  const assertion = (claims: JWTPayload = {}, key: CryptoKey = signingKey, keyId = kid) => {
    const now = Math.floor(stack.clock.now().getTime() / 1000);
    return new SignJWT({ jti: randomUUID(), ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: keyId })
      .setIssuer(String(claims.iss ?? issuer))
      .setSubject(String(claims.sub ?? 'service-account-1'))
      .setAudience(claims.aud ?? `${project.base}/oauth2/token`)
      .setIssuedAt(now)
      .setExpirationTime(typeof claims.exp === 'number' ? claims.exp : now + 300)
      .sign(key);
  };

  it('gives a client an access token for the subject of an assertion signed by a trusted issuer, with the allowed scopes', async () => {
    const client = await relyingParty(project, clientId, secret);
    expect(client.serverMetadata().grant_types_supported).toContain(JWT_BEARER);
    const tokens = await oidc.genericGrantRequest(client, JWT_BEARER, { assertion: await assertion(), scope: 'reports:read' });
    expect(tokens).toMatchObject({ token_type: 'bearer', scope: 'reports:read', expires_in: 3600 });
    expect(tokens.refresh_token).toBeUndefined();
    expect((await hydra(project).introspectOAuth2Token({ token: tokens.access_token })).data).toMatchObject({
      active: true,
      sub: 'service-account-1',
      client_id: clientId,
      scope: 'reports:read',
    });
  });

  it('issues a JWT access token to a client whose strategy is jwt, signed with the project key', async () => {
    const { data: jwtClient } = await hydra(project).createOAuth2Client({
      oAuth2Client: { grant_types: [JWT_BEARER], scope: 'reports:read', access_token_strategy: 'jwt', audience: ['https://reports.example.com'] },
    });
    const client = await relyingParty(project, jwtClient.client_id!, jwtClient.client_secret!);
    const tokens = await oidc.genericGrantRequest(client, JWT_BEARER, { assertion: await assertion(), scope: 'reports:read' });
    const { payload } = await jwtVerify(tokens.access_token, createRemoteJWKSet(new URL(`${project.base}/.well-known/jwks.json`)), {
      issuer: project.base,
      audience: 'https://reports.example.com',
    });
    expect(payload).toMatchObject({ sub: 'service-account-1', client_id: jwtClient.client_id, scope: 'reports:read' });
  });

  it("refuses with Hydra's errors: a scope the trust does not allow, an untrusted issuer, a wrong key, an expired assertion, a wrong audience, a replay", async () => {
    const client = await relyingParty(project, clientId, secret);
    const grant = async (params: Record<string, string>) => refusal(oidc.genericGrantRequest(client, JWT_BEARER, params));
    expect(await grant({ assertion: await assertion(), scope: 'reports:write' })).toEqual({
      error: 'invalid_scope',
      description: `The requested scope is invalid, unknown, or malformed. The public key registered for issuer "${issuer}" and subject "service-account-1" is not allowed to request scope "reports:write".`,
    });
    const untrusted = await grant({ assertion: await assertion({ iss: 'https://stranger.example.com' }) });
    expect(untrusted.error).toBe('invalid_grant');
    expect(untrusted.description).toContain('No public JWK was registered for issuer "https://stranger.example.com" and subject "service-account-1"');
    const otherSubject = await grant({ assertion: await assertion({ sub: 'someone-else' }) });
    expect(otherSubject.description).toContain('No public JWK was registered for issuer "https://issuer.example.com" and subject "someone-else"');
    const forged = await grant({ assertion: await assertion({}, (await generateKeyPair('RS256')).privateKey) });
    expect(forged.description).toContain("Unable to verify the integrity of the 'assertion' value.");
    const now = Math.floor(stack.clock.now().getTime() / 1000);
    const expired = await grant({ assertion: await assertion({ exp: now - 10 }) });
    expect(expired).toMatchObject({ error: 'invalid_grant' });
    expect(expired.description).toContain('The JWT in "assertion" request parameter expired.');
    const elsewhere = await grant({ assertion: await assertion({ aud: `${other.base}/oauth2/token` }) });
    expect(elsewhere.description).toContain(`containing a value "${project.base}/oauth2/token" that identifies the authorization server as an intended audience.`);
    expect(await grant({})).toMatchObject({ error: 'invalid_request' });
    const once = await assertion();
    await oidc.genericGrantRequest(client, JWT_BEARER, { assertion: once });
    expect(await grant({ assertion: once })).toEqual({ error: 'jti_known', description: 'The jti was already used.' });
  });

  it("is the project's own: another project trusts nobody, and a client without the grant is refused", async () => {
    const oauth2 = hydra(other);
    const { data: stranger } = await oauth2.createOAuth2Client({ oAuth2Client: { grant_types: [JWT_BEARER], scope: 'reports:read' } });
    const elsewhere = await relyingParty(other, stranger.client_id!, stranger.client_secret!);
    const signed = await new SignJWT({ jti: randomUUID() })
      .setProtectedHeader({ alg: 'RS256', kid })
      .setIssuer(issuer)
      .setSubject('service-account-1')
      .setAudience(`${other.base}/oauth2/token`)
      .setIssuedAt(Math.floor(stack.clock.now().getTime() / 1000))
      .setExpirationTime(Math.floor(stack.clock.now().getTime() / 1000) + 300)
      .sign(signingKey);
    expect((await refusal(oidc.genericGrantRequest(elsewhere, JWT_BEARER, { assertion: signed }))).description).toContain('No public JWK was registered');
    const { data: machine } = await hydra(project).createOAuth2Client({ oAuth2Client: { grant_types: ['client_credentials'], scope: 'reports:read' } });
    const withoutGrant = await relyingParty(project, machine.client_id!, machine.client_secret!);
    expect(await refusal(oidc.genericGrantRequest(withoutGrant, JWT_BEARER, { assertion: await assertion() }))).toEqual({
      error: 'unauthorized_client',
      description: `The client is not authorized to request a token using this method. The OAuth 2.0 Client is not allowed to use authorization grant "${JWT_BEARER}".`,
    });
  });
});

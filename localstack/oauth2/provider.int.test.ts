import { randomBytes } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptConsent, acceptLogin, getConsentRequest, getLoginRequest, rejectRequest, type ChallengeDeps } from './challenges';
import { generateSigningKey } from './keys';
import { memoryArtefactStore, memoryClientStore } from './memory-store';
import { servePublicOAuth2 } from './mount';
import { createProvider } from './provider';
import { resolveSettings } from './settings';
import type { StoredClient } from './storage';

// Two projects, each its own authorization server on its own base, served in-process on a free port and
// driven over HTTP by openid-client as a real relying party.

const now = () => Math.floor(Date.now() / 1000);
const REDIRECT = 'http://127.0.0.1:1/callback';

interface Project {
  slug: string;
  config: Record<string, unknown>;
  clients: Map<string, StoredClient>;
  deps?: ChallengeDeps;
}

const secret = () => randomBytes(24).toString('base64url');
const webClient = (id: string, s: string): StoredClient => ({
  client_id: id,
  client_secret: s,
  client_name: 'Web app',
  redirect_uris: [REDIRECT],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  scope: 'openid offline_access email',
  token_endpoint_auth_method: 'client_secret_basic',
});
const machineClient = (id: string, s: string, extra: Record<string, unknown> = {}): StoredClient => ({
  client_id: id,
  client_secret: s,
  grant_types: ['client_credentials'],
  response_types: [],
  scope: 'read write',
  token_endpoint_auth_method: 'client_secret_post',
  ...extra,
});

const secrets = { web: secret(), m2m: secret(), jwt: secret(), beta: secret() };
const projects: Record<string, Project> = {
  alpha: {
    slug: 'alpha',
    config: { ttl: { access_token: '5m' } },
    clients: new Map([
      ['web', webClient('web', secrets.web)],
      ['m2m', machineClient('m2m', secrets.m2m)],
      ['jwt', machineClient('jwt', secrets.jwt, { access_token_strategy: 'jwt', audience: ['https://api.example.com'] })],
    ]),
  },
  beta: {
    slug: 'beta',
    config: { oauth2: { pkce: { enforced: true } } },
    clients: new Map([['web', webClient('web', secrets.beta)]]),
  },
};

let app: FastifyInstance;
let base = '';

beforeAll(async () => {
  const keys = new Map<string, Awaited<ReturnType<typeof generateSigningKey>>>();
  for (const slug of Object.keys(projects)) keys.set(slug, await generateSigningKey());
  app = Fastify();
  await app.register(
    async (scope) => {
      servePublicOAuth2(scope, async (req) => {
        const slug = (req.params as { slug: string }).slug;
        const project = projects[slug];
        if (!project) throw new Error(`no project ${slug}`);
        if (!project.deps) {
          const issuer = `${base}/project-api/${slug}`;
          const artefacts = memoryArtefactStore();
          const clients = memoryClientStore(project.clients);
          const provider = createProvider({
            issuer,
            settings: resolveSettings(project.config),
            artefacts,
            clients,
            signingKeys: [keys.get(slug)!],
            cookieKeys: [secret()],
            scopes: [...project.clients.values()].flatMap((c) => String(c.scope ?? '').split(' ')),
            fallbackUrls: { login: `${issuer}/ui/login`, consent: `${issuer}/ui/consent` },
            now,
          });
          project.deps = { provider, clients, artefacts, now };
        }
        return { provider: project.deps.provider, basePath: `/project-api/${slug}` };
      });
    },
    { prefix: '/project-api/:slug' },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await app?.close();
});

const issuerOf = (slug: string) => `${base}/project-api/${slug}`;

async function relyingParty(slug: string, clientId: string, clientSecret: string, auth: 'basic' | 'post' = 'basic') {
  return oidc.discovery(
    new URL(issuerOf(slug)),
    clientId,
    { redirect_uris: [REDIRECT] },
    auth === 'basic' ? oidc.ClientSecretBasic(clientSecret) : oidc.ClientSecretPost(clientSecret),
    { execute: [oidc.allowInsecureRequests] },
  );
}

/** A browser's cookies for one host: what each answer set, sent back on the next request. */
function browser() {
  const jar = new Map<string, string>();
  return async (url: string) => {
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq);
      if (/expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, pair!.slice(eq + 1));
    }
    return res;
  };
}

const depsOf = (slug: string) => projects[slug]!.deps!;

describe('a project authorization server', () => {
  it("serves discovery on Hydra's paths below the project's base", async () => {
    const res = await fetch(`${issuerOf('alpha')}/.well-known/openid-configuration`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc).toMatchObject({
      issuer: issuerOf('alpha'),
      authorization_endpoint: `${issuerOf('alpha')}/oauth2/auth`,
      token_endpoint: `${issuerOf('alpha')}/oauth2/token`,
      revocation_endpoint: `${issuerOf('alpha')}/oauth2/revoke`,
      end_session_endpoint: `${issuerOf('alpha')}/oauth2/sessions/logout`,
      userinfo_endpoint: `${issuerOf('alpha')}/userinfo`,
      jwks_uri: `${issuerOf('alpha')}/.well-known/jwks.json`,
    });
    const jwks = (await (await fetch(doc.jwks_uri as string)).json()) as { keys: Array<Record<string, unknown>> };
    expect(jwks.keys).toHaveLength(1);
    expect(jwks.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    expect(jwks.keys[0]).not.toHaveProperty('d');
  });

  it('issues an opaque client-credentials token that lives as long as the project says, and introspects it', async () => {
    const config = await relyingParty('alpha', 'm2m', secrets.m2m, 'post');
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'read' });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('read');
    expect(tokens.expires_in).toBe(300);
    expect(tokens.access_token.split('.')).toHaveLength(1);
    const info = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(info).toMatchObject({ active: true, client_id: 'm2m', scope: 'read' });
    // A scope the server knows (another client's) but this client was not given is refused.
    await expect(oidc.clientCredentialsGrant(config, { scope: 'read email' })).rejects.toMatchObject({ error: 'invalid_scope' });
  });

  it("issues a JWT access token to a client whose strategy is jwt, signed with the project's key", async () => {
    const config = await relyingParty('alpha', 'jwt', secrets.jwt, 'post');
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'read write' });
    const jwks = createRemoteJWKSet(new URL(`${issuerOf('alpha')}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(tokens.access_token, jwks, {
      issuer: issuerOf('alpha'),
      audience: 'https://api.example.com',
    });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({ client_id: 'jwt', scope: 'read write' });
    expect(payload.exp! - payload.iat!).toBe(300);
  });

  it('refuses a wrong secret, and a client of another project', async () => {
    await expect(oidc.clientCredentialsGrant(await relyingParty('alpha', 'm2m', 'not-the-secret', 'post'))).rejects.toMatchObject({
      error: 'invalid_client',
    });
    await expect(oidc.clientCredentialsGrant(await relyingParty('beta', 'm2m', secrets.m2m, 'post'))).rejects.toMatchObject({
      error: 'invalid_client',
    });
  });

  it('runs the authorization-code flow with PKCE through login and consent, then userinfo, refresh and revoke', async () => {
    const config = await relyingParty('alpha', 'web', secrets.web);
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const go = browser();
    const authUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid offline_access email',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      prompt: 'consent',
    });

    const toLogin = await go(authUrl.href);
    expect(toLogin.status).toBe(303);
    const loginUrl = new URL(toLogin.headers.get('location')!);
    expect(`${loginUrl.origin}${loginUrl.pathname}`).toBe(`${issuerOf('alpha')}/ui/login`);
    const loginChallenge = loginUrl.searchParams.get('login_challenge')!;
    const loginRequest = await getLoginRequest(depsOf('alpha'), loginChallenge);
    expect(loginRequest).toMatchObject({ challenge: loginChallenge, skip: false, requested_scope: ['openid', 'offline_access', 'email'] });
    expect(loginRequest.client).toMatchObject({ client_id: 'web' });
    expect(loginRequest.client).not.toHaveProperty('client_secret');
    const { redirect_to: afterLogin } = await acceptLogin(depsOf('alpha'), loginChallenge, { subject: 'user-1' });

    const toConsent = await go(afterLogin);
    expect(toConsent.status).toBe(303);
    const consentChallenge = new URL(toConsent.headers.get('location')!).searchParams.get('consent_challenge')!;
    await expect(getLoginRequest(depsOf('alpha'), consentChallenge)).rejects.toMatchObject({ status: 404 });
    expect(await getConsentRequest(depsOf('alpha'), consentChallenge)).toMatchObject({ subject: 'user-1' });
    const { redirect_to: afterConsent } = await acceptConsent(depsOf('alpha'), consentChallenge, {
      grant_scope: ['openid', 'offline_access', 'email'],
      session: { id_token: { email: 'user-1@example.com', email_verified: true } },
    });

    const toClient = await go(afterConsent);
    expect(toClient.status).toBe(303);
    const callback = new URL(toClient.headers.get('location')!);
    expect(callback.searchParams.get('code')).toBeTruthy();
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    expect(tokens.refresh_token).toBeTruthy();
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ sub: 'user-1', aud: 'web', iss: issuerOf('alpha'), email: 'user-1@example.com' });
    const jwks = createRemoteJWKSet(new URL(`${issuerOf('alpha')}/.well-known/jwks.json`));
    await jwtVerify(tokens.id_token!, jwks, { issuer: issuerOf('alpha'), audience: 'web' });

    expect(await oidc.fetchUserInfo(config, tokens.access_token, 'user-1')).toMatchObject({ sub: 'user-1', email: 'user-1@example.com' });

    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect(decodeJwt(refreshed.id_token!).sub).toBe('user-1');

    await oidc.tokenRevocation(config, refreshed.refresh_token!);
    expect((await oidc.tokenIntrospection(config, refreshed.refresh_token!)).active).toBe(false);
    await expect(oidc.refreshTokenGrant(config, refreshed.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });

    // The code was used once: a second exchange is refused.
    await expect(
      oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce }),
    ).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('sends the user back with access_denied when consent is rejected', async () => {
    const config = await relyingParty('alpha', 'web', secrets.web);
    const go = browser();
    const verifier = oidc.randomPKCECodeVerifier();
    const authUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'st',
    });
    const loginChallenge = new URL((await go(authUrl.href)).headers.get('location')!).searchParams.get('login_challenge')!;
    const { redirect_to } = await acceptLogin(depsOf('alpha'), loginChallenge, { subject: 'user-2' });
    const consentChallenge = new URL((await go(redirect_to)).headers.get('location')!).searchParams.get('consent_challenge')!;
    const rejected = await rejectRequest(depsOf('alpha'), consentChallenge, 'consent', { error_description: 'No thanks' });
    const callback = new URL((await go(rejected.redirect_to)).headers.get('location')!);
    expect(callback.searchParams.get('error')).toBe('access_denied');
    expect(callback.searchParams.get('error_description')).toBe('No thanks');
    expect(callback.searchParams.get('state')).toBe('st');
  });

  it('refuses an authorization request without PKCE where the project enforces it', async () => {
    const config = await relyingParty('beta', 'web', secrets.beta);
    const authUrl = oidc.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: 'openid', state: 'st' });
    const res = await browser()(authUrl.href);
    expect(res.status).toBe(303);
    const callback = new URL(res.headers.get('location')!);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get('error')).toBe('invalid_request');
    expect(callback.searchParams.get('error_description')).toMatch(/PKCE/);
  });
});

import { randomBytes } from 'node:crypto';
import { Configuration, OAuth2Api, OidcApi, type OAuth2Client } from '@ory/client';
import Fastify, { type FastifyInstance } from 'fastify';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerOAuth2Admin, type AdminProject } from './admin-routes';
import { generateSigningKey } from './keys';
import { memoryArtefactStore, memoryClientRepository, memoryClientStore, memoryKeySets } from './memory-store';
import { servePublicOAuth2 } from './mount';
import { createServerRegistry } from './registry';
import type { SigningKey, StoredClient } from './storage';

// Hydra's admin API and public API of two projects, served in-process and called with @ory/client as any
// Ory SDK user would, each project with its own key: a project's key reaches only that project.

const now = () => Math.floor(Date.now() / 1000);
const REDIRECT = 'http://127.0.0.1:1/callback';
const slugs = ['alpha', 'beta'] as const;
type Slug = (typeof slugs)[number];
const apiKeys: Record<Slug, string> = { alpha: `ory_pat_${randomBytes(8).toString('hex')}`, beta: `ory_pat_${randomBytes(8).toString('hex')}` };

let app: FastifyInstance;
let base = '';
const registry = createServerRegistry();
const state = new Map<Slug, { clients: Map<string, StoredClient>; keys: SigningKey[]; cookieKeys: string[]; artefacts: ReturnType<typeof memoryArtefactStore> }>();

function projectFor(slug: string): AdminProject {
  const s = state.get(slug as Slug)!;
  const issuer = `${base}/project-api/${slug}`;
  const clients = memoryClientStore(s.clients);
  return {
    clients: memoryClientRepository(s.clients),
    subjectTypes: ['public'],
    keySets: memoryKeySets(),
    artefacts: s.artefacts,
    signingSet: 'hydra.openid.id-token',
    server: () =>
      registry.serverFor({
        projectId: slug,
        issuer,
        config: {},
        artefacts: s.artefacts,
        clients,
        clientScopes: async () => [...s.clients.values()].flatMap((c) => String(c.scope ?? '').split(' ')),
        signingKeys: async () => s.keys,
        cookieKeys: async () => s.cookieKeys,
        fallbackUrls: { login: `${issuer}/ui/login`, consent: `${issuer}/ui/consent` },
        now,
      }),
  };
}

beforeAll(async () => {
  for (const slug of slugs) {
    state.set(slug, { clients: new Map(), keys: [await generateSigningKey()], cookieKeys: [randomBytes(16).toString('hex')], artefacts: memoryArtefactStore() });
  }
  app = Fastify();
  await app.register(
    async (scope) => {
      const slugOf = (params: unknown) => (params as { slug: string }).slug;
      await scope.register(async (admin) => {
        registerOAuth2Admin(admin, {
          now: () => new Date(),
          async projectOf(req) {
            const slug = slugOf(req.params);
            if (req.headers.authorization !== `Bearer ${apiKeys[slug as Slug]}`) {
              throw Object.assign(new Error('The request could not be authorized'), { statusCode: 401 });
            }
            return projectFor(slug);
          },
        });
      });
      await scope.register(async (pub) => {
        servePublicOAuth2(pub, async (req) => {
          const slug = slugOf(req.params);
          return { provider: (await projectFor(slug).server()).provider, basePath: `/project-api/${slug}` };
        });
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

const sdk = (slug: Slug, key = apiKeys[slug]) => {
  const configuration = new Configuration({ basePath: `${base}/project-api/${slug}`, accessToken: key });
  return { oauth2: new OAuth2Api(configuration), oidc: new OidcApi(configuration) };
};

/** The OAuth error of a refused token request, whether in the body or in a WWW-Authenticate challenge. */
const oauthError = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    const e = err as { error?: string; cause?: Array<{ parameters?: { error?: string } }> };
    return e.error ?? e.cause?.[0]?.parameters?.error;
  }
  throw new Error('expected the token request to fail');
};

const failure = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    const response = (err as { response?: { status: number; data: unknown } }).response;
    if (response) return { status: response.status, data: response.data as Record<string, unknown> };
    throw err;
  }
  throw new Error('expected the call to fail');
};

describe("a project's OAuth2 admin API", () => {
  it('creates a client with its secret once, then never shows the secret again', async () => {
    const { oauth2 } = sdk('alpha');
    const created = await oauth2.createOAuth2Client({ oAuth2Client: { client_name: 'Shop', redirect_uris: [REDIRECT] } });
    expect(created.status).toBe(201);
    expect(created.data.client_secret).toMatch(/^.{26}$/);
    expect(created.data).toMatchObject({
      client_name: 'Shop',
      scope: 'offline_access offline openid',
      token_endpoint_auth_method: 'client_secret_basic',
      subject_type: 'public',
    });
    const got = await oauth2.getOAuth2Client({ id: created.data.client_id! });
    expect(got.data.client_secret).toBeUndefined();
    expect(got.data.created_at).toBe(created.data.created_at);
  });

  it("answers Hydra's 400 and 404 shapes", async () => {
    const { oauth2 } = sdk('alpha');
    expect(await failure(oauth2.createOAuth2Client({ oAuth2Client: { client_secret: 'short' } }))).toMatchObject({
      status: 400,
      data: { error: 'invalid_client_metadata', error_description: expect.stringContaining('at least 6 characters') },
    });
    expect(await failure(oauth2.getOAuth2Client({ id: 'missing' }))).toEqual({
      status: 404,
      data: { error: 'Not Found', error_description: 'Unable to locate the requested resource' },
    });
    await oauth2.createOAuth2Client({ oAuth2Client: { client_id: 'fixed-id' } });
    expect((await failure(oauth2.createOAuth2Client({ oAuth2Client: { client_id: 'fixed-id' } }))).status).toBe(409);
  });

  it('pages through clients with a Link header and filters by name and owner', async () => {
    const { oauth2 } = sdk('beta');
    for (let i = 0; i < 5; i++) {
      await oauth2.createOAuth2Client({ oAuth2Client: { client_id: `c-${i}`, client_name: i % 2 ? 'odd' : 'even', owner: `team-${i % 2}` } });
    }
    const seen: string[] = [];
    let token: string | undefined;
    for (;;) {
      const page = await oauth2.listOAuth2Clients({ pageSize: 2, ...(token ? { pageToken: token } : {}) });
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((c: OAuth2Client) => c.client_id!));
      const next = /<([^>]*)>; rel="next"/.exec(String(page.headers.link ?? ''));
      if (!next) break;
      token = new URL(next[1]!, base).searchParams.get('page_token') ?? undefined;
    }
    expect(seen).toEqual(['c-0', 'c-1', 'c-2', 'c-3', 'c-4']);
    expect((await oauth2.listOAuth2Clients({ clientName: 'odd' })).data.map((c) => c.client_id)).toEqual(['c-1', 'c-3']);
    expect((await oauth2.listOAuth2Clients({ owner: 'team-0' })).data.map((c) => c.client_id)).toEqual(['c-0', 'c-2', 'c-4']);
    expect((await failure(oauth2.listOAuth2Clients({ pageSize: 5000 }))).status).toBe(400);
    expect((await failure(oauth2.listOAuth2Clients({ pageToken: 'garbage!' }))).status).toBe(400);
  });

  it('sets, patches, rotates and deletes a client', async () => {
    const { oauth2 } = sdk('alpha');
    const { data: c } = await oauth2.createOAuth2Client({ oAuth2Client: { client_name: 'Before', metadata: { keep: true } } });
    const id = c.client_id!;
    const set = await oauth2.setOAuth2Client({ id, oAuth2Client: { client_name: 'After', grant_types: ['client_credentials'] } });
    expect(set.data).toMatchObject({ client_name: 'After', grant_types: ['client_credentials'], metadata: {} });
    expect(set.data.client_secret).toBeUndefined();
    const patched = await oauth2.patchOAuth2Client({ id, jsonPatch: [{ op: 'replace', path: '/client_name', value: 'Patched' }] });
    expect(patched.data.client_name).toBe('Patched');
    expect(patched.data.grant_types).toEqual(['client_credentials']);
    expect((await failure(oauth2.patchOAuth2Client({ id, jsonPatch: [{ op: 'replace', path: '/client_id', value: 'x' }] }))).status).toBe(400);
    // As in Hydra, a rotated secret keeps working beside the new one until the rotated secrets are deleted.
    const config = async (secret: string) =>
      oidc.discovery(new URL(`${base}/project-api/alpha`), id, {}, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });
    await oidc.clientCredentialsGrant(await config(c.client_secret!));
    const rotated = await oauth2.rotateOAuth2ClientSecret({ id });
    expect(rotated.data.client_secret).not.toBe(c.client_secret);
    await oidc.clientCredentialsGrant(await config(c.client_secret!));
    await oidc.clientCredentialsGrant(await config(rotated.data.client_secret!));
    await oauth2.deleteRotatedOAuth2ClientSecrets({ id });
    expect(await oauthError(oidc.clientCredentialsGrant(await config(c.client_secret!)))).toBe('invalid_client');
    expect((await oauth2.deleteOAuth2Client({ id })).status).toBe(204);
    expect((await failure(oauth2.getOAuth2Client({ id }))).status).toBe(404);
    expect((await failure(oauth2.deleteOAuth2Client({ id }))).status).toBe(404);
  });

  it("keeps each project's clients to itself", async () => {
    const { data: c } = await sdk('alpha').oauth2.createOAuth2Client({ oAuth2Client: { client_name: 'Alpha only', grant_types: ['client_credentials'] } });
    expect((await failure(sdk('beta').oauth2.getOAuth2Client({ id: c.client_id! }))).status).toBe(404);
    expect((await sdk('beta').oauth2.listOAuth2Clients()).data.map((x) => x.client_id)).not.toContain(c.client_id);
    expect((await failure(sdk('beta', apiKeys.alpha).oauth2.listOAuth2Clients())).status).toBe(401);
    const beta = await oidc.discovery(new URL(`${base}/project-api/beta`), c.client_id!, {}, oidc.ClientSecretBasic(c.client_secret!), {
      execute: [oidc.allowInsecureRequests],
    });
    expect(await oauthError(oidc.clientCredentialsGrant(beta))).toBe('invalid_client');
  });

  it('drives login and consent through the admin API and introspects the tokens', async () => {
    const { oauth2, oidc: oidcApi } = sdk('alpha');
    const { data: c } = await oauth2.createOAuth2Client({
      oAuth2Client: { redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'openid offline_access email' },
    });
    const config = await oidc.discovery(new URL(`${base}/project-api/alpha`), c.client_id!, {}, oidc.ClientSecretBasic(c.client_secret!), {
      execute: [oidc.allowInsecureRequests],
    });
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
        scope: 'openid email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state: 'abc',
      }).href,
    );
    const loginChallenge = toLogin.searchParams.get('login_challenge')!;
    const login = await oauth2.getOAuth2LoginRequest({ loginChallenge });
    expect(login.data).toMatchObject({ challenge: loginChallenge, skip: false, client: { client_id: c.client_id } });
    const accepted = await oauth2.acceptOAuth2LoginRequest({ loginChallenge, acceptOAuth2LoginRequest: { subject: 'user-9' } });
    const consentChallenge = (await go(accepted.data.redirect_to)).searchParams.get('consent_challenge')!;
    expect((await oauth2.getOAuth2ConsentRequest({ consentChallenge })).data).toMatchObject({ subject: 'user-9', requested_scope: ['openid', 'email'] });
    const consented = await oauth2.acceptOAuth2ConsentRequest({
      consentChallenge,
      acceptOAuth2ConsentRequest: { grant_scope: ['openid', 'email'], session: { id_token: { email: 'nine@example.com' } } },
    });
    expect((await failure(oauth2.getOAuth2LoginRequest({ loginChallenge }))).status).toBe(404);
    const callback = await go(consented.data.redirect_to);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'abc' });
    expect(tokens.claims()).toMatchObject({ sub: 'user-9', email: 'nine@example.com' });

    const userinfo = await new OidcApi(new Configuration({ basePath: `${base}/project-api/alpha`, accessToken: tokens.access_token })).getOidcUserInfo();
    expect(userinfo.data).toMatchObject({ sub: 'user-9', email: 'nine@example.com' });
    const discovery = await oidcApi.discoverOidcConfiguration();
    expect(discovery.data.token_endpoint).toBe(`${base}/project-api/alpha/oauth2/token`);

    const introspected = await oauth2.introspectOAuth2Token({ token: tokens.access_token });
    expect(introspected.data).toMatchObject({ active: true, client_id: c.client_id, sub: 'user-9', scope: 'openid email' });
    await oidc.tokenRevocation(config, tokens.access_token);
    expect((await oauth2.introspectOAuth2Token({ token: tokens.access_token })).data).toEqual({ active: false });
  });
});

import { randomUUID } from 'node:crypto';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';
import type { AppDeps } from '../deps';

// OAuth2 clients through the BFF: createCaller against a real local stack over HTTP, with a second user who
// must reach none of the first user's clients.

let stack: TestStack;
let deps: AppDeps;
type Caller = ReturnType<typeof callerFor>;
let owner: Caller;
let outsider: Caller;
let projectId: string;
let slug: string;
let otherProjectId: string;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [a, b] = await Promise.all([registerUser(stack.url, { name: 'Client Owner' }), registerUser(stack.url, { name: 'Client Outsider' })]);
  owner = callerFor(deps, a.cookie);
  outsider = callerFor(deps, b.cookie);
  const project = await owner.projects.create({ name: 'Apps', environment: 'dev' });
  projectId = project.id;
  slug = project.slug;
  otherProjectId = (await outsider.projects.create({ name: 'Elsewhere', environment: 'dev' })).id;
});
afterAll(async () => {
  await stack?.close();
});

describe('oauth2Clients', () => {
  it('creates a client by the spec §3 body rules and shows its secret once', async () => {
    const jwks = { keys: [{ kty: 'oct', kid: 'k1', alg: 'HS256', use: 'sig', k: 'c2VjcmV0' }] };
    const created = await owner.oauth2Clients.create({
      projectId,
      client: { client_name: 'Shop', scope: ['openid', ' email ', ''], jwks: JSON.stringify(jwks), skip_logout_consent: false, redirect_uris: ['https://shop.example.com/cb'] },
    });
    expect(created.client_secret).toBeTruthy();
    expect(created.scope).toBe('openid email');
    expect(created.jwks).toEqual(jwks);
    expect(created.skip_logout_consent).toBe(false);
    const got = await owner.oauth2Clients.get({ projectId, clientId: created.client_id! });
    expect(got.client_secret).toBeUndefined();

    // JWKS text that does not parse is left out rather than sent.
    const unparsable = await owner.oauth2Clients.create({ projectId, client: { client_name: 'No keys', jwks: '{not json', skip_logout_consent: true } });
    expect(unparsable.jwks).toBeUndefined();
    expect(unparsable.skip_logout_consent).toBe(true);
  });

  it('pages the list 25 at a time and finds a client by name', async () => {
    const { clients: before } = await owner.oauth2Clients.list({ projectId, pageSize: 1000 });
    for (let i = before.length; i < 27; i++) await owner.oauth2Clients.create({ projectId, client: { client_name: `Bulk ${i}` } });
    const first = await owner.oauth2Clients.list({ projectId });
    expect(first.clients).toHaveLength(25);
    expect(first.nextPageToken).toBeTruthy();
    const second = await owner.oauth2Clients.list({ projectId, pageToken: first.nextPageToken! });
    expect(second.clients).toHaveLength(2);
    expect(second.nextPageToken).toBeNull();
    const ids = new Set([...first.clients, ...second.clients].map((c) => c.client_id));
    expect(ids.size).toBe(27);
    expect((await owner.oauth2Clients.list({ projectId, clientName: 'Shop' })).clients.map((c) => c.client_name)).toEqual(['Shop']);
  });

  it('sets what the form shows and keeps the rest, patches, rotates and deletes', async () => {
    const created = await owner.oauth2Clients.create({ projectId, client: { client_name: 'Before', metadata: { team: 'web' }, audience: ['https://api.example.com'] } });
    const clientId = created.client_id!;
    const set = await owner.oauth2Clients.set({ projectId, clientId, client: { client_name: 'After' } });
    expect(set).toMatchObject({ client_name: 'After', metadata: { team: 'web' }, audience: ['https://api.example.com'] });
    expect(set.client_secret).toBeUndefined();
    const patched = await owner.oauth2Clients.patch({ projectId, clientId, patch: [{ op: 'replace', path: '/client_name', value: 'Patched' }] });
    expect(patched.client_name).toBe('Patched');
    const rotated = await owner.oauth2Clients.rotateSecret({ projectId, clientId });
    expect(rotated.client_secret).toBeTruthy();
    expect(rotated.client_secret).not.toBe(created.client_secret);
    expect(await owner.oauth2Clients.delete({ projectId, clientId })).toEqual({ ok: true });
    expect((await rejection(owner.oauth2Clients.get({ projectId, clientId }))).code).toBe('NOT_FOUND');
  });

  it("answers Hydra's refusals as 4xx with what to fix", async () => {
    const refused = await rejection(owner.oauth2Clients.create({ projectId, client: { redirect_uris: ['https://app.example.com/cb#fragment'] } }));
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.message).toContain('fragments');
  });

  it("gives the outsider nothing of the owner's clients", async () => {
    const { client_id } = await owner.oauth2Clients.create({ projectId, client: { client_name: 'Private' } });
    for (const attempt of [
      () => outsider.oauth2Clients.list({ projectId }),
      () => outsider.oauth2Clients.get({ projectId, clientId: client_id! }),
      () => outsider.oauth2Clients.delete({ projectId, clientId: client_id! }),
    ]) {
      expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(attempt())).code);
    }
    // The outsider's own project does not know the client either.
    expect((await rejection(outsider.oauth2Clients.get({ projectId: otherProjectId, clientId: client_id! }))).code).toBe('NOT_FOUND');
    expect((await owner.oauth2Clients.get({ projectId, clientId: client_id! })).client_name).toBe('Private');
  });

  it('creates a client that gets tokens from its own project only', async () => {
    const client = await owner.oauth2Clients.create({ projectId, client: { client_name: 'Machine', grant_types: ['client_credentials'], scope: 'reports:read' } });
    const issuer = new URL(`${stack.url}/project-api/${slug}`);
    const config = await oidc.discovery(issuer, client.client_id!, {}, oidc.ClientSecretBasic(client.client_secret!), { execute: [oidc.allowInsecureRequests] });
    const tokens = await oidc.clientCredentialsGrant(config, { scope: 'reports:read' });
    expect(tokens.scope).toBe('reports:read');
  });

  it('gives a JWT-bearer client a token for an assertion of an issuer the console trusts, within the trust\'s scopes', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    await owner.oauth2TrustedIssuers.trust({
      projectId,
      issuer: {
        issuer: 'https://partner.example.com',
        allow_any_subject: true,
        scope: 'reports:read',
        jwk: JSON.stringify({ ...(await exportJWK(publicKey)), kid: 'partner-1', alg: 'ES256', use: 'sig' }),
        expires_at: '2099-01-31',
      },
    });
    const client = await owner.oauth2Clients.create({
      projectId,
      client: { client_name: 'Partner bridge', grant_types: ['urn:ietf:params:oauth:grant-type:jwt-bearer'], scope: 'reports:read reports:write' },
    });
    const base = `${stack.url}/project-api/${slug}`;
    const config = await oidc.discovery(new URL(base), client.client_id!, {}, oidc.ClientSecretBasic(client.client_secret!), { execute: [oidc.allowInsecureRequests] });
    const assertion = () =>
      new SignJWT({ jti: randomUUID() })
        .setProtectedHeader({ alg: 'ES256', kid: 'partner-1' })
        .setIssuer('https://partner.example.com')
        .setSubject('partner-user-7')
        .setAudience(`${base}/oauth2/token`)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(privateKey);
    const grant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
    const tokens = await oidc.genericGrantRequest(config, grant, { assertion: await assertion(), scope: 'reports:read' });
    expect(tokens.scope).toBe('reports:read');
    const refused = await oidc.genericGrantRequest(config, grant, { assertion: await assertion(), scope: 'reports:write' }).catch((e: { error?: string }) => e);
    expect((refused as { error?: string }).error).toBe('invalid_scope');
  });

  it("changes the project's token lifespan and strategy, and the next token follows", async () => {
    const client = await owner.oauth2Clients.create({ projectId, client: { client_name: 'Clocked', grant_types: ['client_credentials'], scope: 'jobs' } });
    const issuer = new URL(`${stack.url}/project-api/${slug}`);
    const token = async () =>
      oidc.clientCredentialsGrant(
        await oidc.discovery(issuer, client.client_id!, {}, oidc.ClientSecretBasic(client.client_secret!), { execute: [oidc.allowInsecureRequests] }),
        { scope: 'jobs' },
      );
    expect((await owner.oauth2Config.get({ projectId })).lifespans.access_token).toBe('');
    expect((await token()).expires_in).toBe(3600);

    const set = await owner.oauth2Config.setLifespans({ projectId, access_token: '5m' });
    expect(set.lifespans.access_token).toBe('5m');
    expect((await token()).expires_in).toBe(300);

    expect((await owner.oauth2Config.setStrategies({ projectId, access_token: 'jwt' })).strategies.access_token).toBe('jwt');
    expect((await token()).access_token.split('.')).toHaveLength(3);

    // Back to Hydra's defaults; a lifespan that is not a duration says what to write.
    await owner.oauth2Config.setLifespans({ projectId, access_token: '' });
    await owner.oauth2Config.setStrategies({ projectId, access_token: 'opaque' });
    const back = await token();
    expect(back.expires_in).toBe(3600);
    expect(back.access_token.split('.')).toHaveLength(1);
    const refused = await rejection(owner.oauth2Config.setLifespans({ projectId, access_token: 'five minutes' }));
    expect(refused.code).toBe('BAD_REQUEST');
    expect(refused.message).toContain('such as 1h');
    expect((await rejection(outsider.oauth2Config.setLifespans({ projectId, access_token: '1h' }))).code).toMatch(/FORBIDDEN|NOT_FOUND/);
  });

  it('follows the URLs, PKCE, cookie and subject-type settings on the next request', async () => {
    const REDIRECT = 'https://web.example.com/callback';
    const client = await owner.oauth2Clients.create({ projectId, client: { client_name: 'Browser app', redirect_uris: [REDIRECT], scope: 'openid' } });
    const issuer = new URL(`${stack.url}/project-api/${slug}`);
    const authorize = async (pkce: boolean) => {
      const config = await oidc.discovery(issuer, client.client_id!, {}, oidc.ClientSecretBasic(client.client_secret!), { execute: [oidc.allowInsecureRequests] });
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: 'openid',
        state: 'state-1',
        ...(pkce ? { code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()), code_challenge_method: 'S256' } : {}),
      });
      const res = await fetch(url, { redirect: 'manual' });
      return { location: new URL(res.headers.get('location')!), cookies: res.headers.getSetCookie() };
    };

    await owner.oauth2Config.setUrls({ projectId, login: 'https://login.example.com/sign-in' });
    const toLogin = await authorize(false);
    expect(`${toLogin.location.origin}${toLogin.location.pathname}`).toBe('https://login.example.com/sign-in');
    expect(toLogin.location.searchParams.get('login_challenge')).toBeTruthy();
    expect(toLogin.cookies.some((c) => /samesite=lax/i.test(c))).toBe(true);

    await owner.oauth2Config.setCookies({ projectId, same_site_mode: 'Strict' });
    expect((await authorize(false)).cookies.some((c) => /samesite=strict/i.test(c))).toBe(true);

    expect((await owner.oauth2Config.setConfigure({ projectId, pkce_enforced: true })).configure.pkce_enforced).toBe(true);
    const refused = await authorize(false);
    expect(`${refused.location.origin}${refused.location.pathname}`).toBe(REDIRECT);
    expect(refused.location.searchParams.get('error')).toBe('invalid_request');
    expect((await authorize(true)).location.searchParams.get('login_challenge')).toBeTruthy();

    // Only public subjects: a pairwise client is refused until pairwise is offered.
    expect((await rejection(owner.oauth2Clients.create({ projectId, client: { client_name: 'Pairwise', subject_type: 'pairwise' } }))).code).toBe('BAD_REQUEST');
    const openid = await owner.oauth2Config.setOpenId({ projectId, subject_types: ['public', 'pairwise'], pairwise_salt: 'a-long-salt-value' });
    expect(openid.openid).toEqual({ subject_types: ['public', 'pairwise'], pairwise_salt_set: true });
    expect((await owner.oauth2Clients.create({ projectId, client: { client_name: 'Pairwise', subject_type: 'pairwise' } })).subject_type).toBe('pairwise');

    await owner.oauth2Config.setUrls({ projectId, login: '' });
    await owner.oauth2Config.setConfigure({ projectId, pkce_enforced: false });
    await owner.oauth2Config.setCookies({ projectId, same_site_mode: 'Lax' });
    expect((await owner.oauth2Config.get({ projectId })).urls.login).toBe('');
  });

  it('names the issuer the project config names, in discovery and in its tokens, while answering on its own base', async () => {
    const base = `${stack.url}/project-api/${slug}`;
    const discovered = async () => ((await (await fetch(`${base}/.well-known/openid-configuration`)).json()) as { issuer: string; token_endpoint: string });
    const client = await owner.oauth2Clients.create({
      projectId,
      client: { client_name: 'Issued', grant_types: ['client_credentials'], scope: 'jobs', access_token_strategy: 'jwt' },
    });
    const mint = async () => {
      const res = await fetch(`${base}/oauth2/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(client.client_id!)}:${encodeURIComponent(client.client_secret!)}`).toString('base64')}`,
        },
        body: 'grant_type=client_credentials&scope=jobs',
      });
      expect(res.status).toBe(200);
      return decodeJwt(((await res.json()) as { access_token: string }).access_token);
    };
    expect((await owner.oauth2Config.setUrls({ projectId, issuer: 'https://auth.example.com' })).urls.issuer).toBe('https://auth.example.com');
    expect(await discovered()).toMatchObject({ issuer: 'https://auth.example.com', token_endpoint: `${base}/oauth2/token` });
    expect((await mint()).iss).toBe('https://auth.example.com');
    expect((await rejection(owner.oauth2Config.setUrls({ projectId, issuer: 'not a url' }))).code).toBe('BAD_REQUEST');

    await owner.oauth2Config.setUrls({ projectId, issuer: '' });
    expect((await discovered()).issuer).toBe(base);
    expect((await mint()).iss).toBe(base);
    expect((await owner.oauth2Config.get({ projectId })).urls.issuer).toBe('');
  });
  it('switches scope matching and dynamic client registration from the strategies and configuration settings', async () => {
    const base = `${stack.url}/project-api/${slug}`;
    const client = await owner.oauth2Clients.create({ projectId, client: { client_name: 'Wildcards', grant_types: ['client_credentials'], scope: 'files.*' } });
    const ask = async (scope: string) =>
      oidc
        .clientCredentialsGrant(
          await oidc.discovery(new URL(base), client.client_id!, {}, oidc.ClientSecretBasic(client.client_secret!), { execute: [oidc.allowInsecureRequests] }),
          { scope },
        )
        .then((t) => t.scope, (e: { error?: string }) => e.error);
    const before = await owner.oauth2Config.get({ projectId });
    expect(before.strategies.scope).toBe('wildcard');
    expect(before.configure.dynamic_client_registration).toBe(false);
    expect(await ask('files.read')).toBe('files.read');

    // Changing the scope strategy alone keeps the access-token strategy.
    const exact = await owner.oauth2Config.setStrategies({ projectId, scope: 'exact' });
    expect(exact.strategies).toEqual({ access_token: before.strategies.access_token, scope: 'exact' });
    expect(await ask('files.read')).toBe('invalid_scope');
    expect(await ask('files.*')).toBe('files.*');
    await owner.oauth2Config.setStrategies({ projectId, scope: 'wildcard' });
    expect(await ask('files.read')).toBe('files.read');
    expect((await rejection(owner.oauth2Config.setStrategies({ projectId }))).code).toBe('BAD_REQUEST');
    expect((await rejection(owner.oauth2Config.setStrategies({ projectId, scope: 'fuzzy' as 'exact' }))).message).toContain('exact or wildcard');
    expect((await rejection(outsider.oauth2Config.setStrategies({ projectId, scope: 'exact' }))).code).toMatch(/FORBIDDEN|NOT_FOUND/);

    const register = () => fetch(`${base}/oauth2/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Registrant' }) });
    expect((await register()).status).toBe(404);
    const on = await owner.oauth2Config.setConfigure({ projectId, dynamic_client_registration: true });
    expect(on.configure).toMatchObject({ dynamic_client_registration: true, pkce_enforced: before.configure.pkce_enforced });
    expect((await register()).status).toBe(201);
    expect((await owner.oauth2Config.setConfigure({ projectId, dynamic_client_registration: false })).configure.dynamic_client_registration).toBe(false);
    expect((await register()).status).toBe(404);
    expect((await rejection(outsider.oauth2Config.setConfigure({ projectId, dynamic_client_registration: true }))).code).toMatch(/FORBIDDEN|NOT_FOUND/);
  });
});

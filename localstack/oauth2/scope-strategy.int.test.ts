import { Configuration, OAuth2Api } from '@ory/client';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { startTestStack } from '../test-support/control-plane';

// Hydra's `strategies.scope` on a project's OAuth2 server: wildcard (Hydra's default) and exact matching of the
// scopes a client asks for, at the token endpoint (client credentials) and the authorization endpoint.

const REDIRECT = 'http://127.0.0.1:1/callback';
let stack: LocalStack;
let owner: TestUser;
let project: TestProject;

const hydra = () => new OAuth2Api(new Configuration({ basePath: project.base, accessToken: project.key }));
const refusedScope = (scope: string) =>
  `The requested scope is invalid, unknown, or malformed. The OAuth 2.0 Client is not allowed to request scope '${scope}'.`;

async function setScopeStrategy(strategy: 'exact' | 'wildcard' | null) {
  const answer = await owner.projects.patchProject({
    projectId: project.id,
    jsonPatch: [{ op: 'add', path: '/services/oauth2/config/strategies', value: strategy ? { scope: strategy } : {} }],
  });
  expect(answer.status).toBe(200);
}

/** The scope of a client-credentials token, or the refusal's error and description. */
async function clientCredentials(clientId: string, secret: string, scope: string) {
  const config = await oidc.discovery(new URL(project.base), clientId, {}, oidc.ClientSecretBasic(secret), { execute: [oidc.allowInsecureRequests] });
  try {
    const tokens = await oidc.clientCredentialsGrant(config, { scope });
    return { scope: tokens.scope };
  } catch (err) {
    const e = err as { error?: string; error_description?: string };
    if (!e.error) throw err;
    return { error: e.error, description: e.error_description };
  }
}

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'Scopes');
  project = await projectWithKey(stack, owner, 'Scopes');
});

afterAll(async () => {
  await stack?.close();
});

describe("a project's scope strategy", () => {
  it('matches client-credentials scopes by wildcard unless the project says exact', async () => {
    const { data: client } = await hydra().createOAuth2Client({
      oAuth2Client: { client_name: 'Photo worker', grant_types: ['client_credentials'], scope: 'photos.* a.*.c jobs' },
    });
    const ask = (scope: string) => clientCredentials(client.client_id!, client.client_secret!, scope);

    // Hydra's default: wildcard.
    expect(await ask('photos.read')).toEqual({ scope: 'photos.read' });
    expect(await ask('photos.read.thumbnails jobs')).toEqual({ scope: 'photos.read.thumbnails jobs' });
    expect(await ask('a.b.c')).toEqual({ scope: 'a.b.c' });
    expect(await ask('photos')).toEqual({ error: 'invalid_scope', description: refusedScope('photos') });
    expect(await ask('a.b.d')).toEqual({ error: 'invalid_scope', description: refusedScope('a.b.d') });
    expect(await ask('jobs videos.read')).toEqual({ error: 'invalid_scope', description: refusedScope('videos.read') });

    await setScopeStrategy('exact');
    expect(await ask('photos.read')).toEqual({ error: 'invalid_scope', description: refusedScope('photos.read') });
    expect(await ask('photos.* jobs')).toEqual({ scope: 'photos.* jobs' });
    expect(await ask('unheard.of')).toEqual({ error: 'invalid_scope', description: refusedScope('unheard.of') });

    await setScopeStrategy('wildcard');
    expect(await ask('photos.write')).toEqual({ scope: 'photos.write' });
    await setScopeStrategy(null);
  });

  it('matches authorization-request scopes by the same strategy, through login and consent to the token', async () => {
    const oauth2 = hydra();
    const { data: client } = await oauth2.createOAuth2Client({
      oAuth2Client: { client_name: 'Photo app', redirect_uris: [REDIRECT], grant_types: ['authorization_code'], scope: 'openid photos.*' },
    });
    const config = await oidc.discovery(new URL(project.base), client.client_id!, {}, oidc.ClientSecretBasic(client.client_secret!), {
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
    const authorize = async (scope: string) => {
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope,
        state: 'state-1',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      return { location: await go(url.href), verifier };
    };

    const { location: toLogin, verifier } = await authorize('openid photos.read');
    const loginChallenge = toLogin.searchParams.get('login_challenge');
    expect(loginChallenge).toBeTruthy();
    const { data: login } = await oauth2.acceptOAuth2LoginRequest({ loginChallenge: loginChallenge!, acceptOAuth2LoginRequest: { subject: 'viewer-1' } });
    const consentChallenge = (await go(login.redirect_to)).searchParams.get('consent_challenge')!;
    const { data: consentRequest } = await oauth2.getOAuth2ConsentRequest({ consentChallenge });
    expect(consentRequest.requested_scope).toEqual(['openid', 'photos.read']);
    const { data: consent } = await oauth2.acceptOAuth2ConsentRequest({ consentChallenge, acceptOAuth2ConsentRequest: { grant_scope: ['openid', 'photos.read'] } });
    const callback = await go(consent.redirect_to);
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: 'state-1' });
    expect(tokens.scope?.split(' ').sort()).toEqual(['openid', 'photos.read']);

    // A scope outside the client's is refused back to the client, as is photos.read once matching is exact.
    const outside = (await authorize('openid videos.read')).location;
    expect(`${outside.origin}${outside.pathname}`).toBe(REDIRECT);
    expect(Object.fromEntries(outside.searchParams)).toMatchObject({ error: 'invalid_scope', error_description: refusedScope('videos.read'), state: 'state-1' });
    await setScopeStrategy('exact');
    const exact = (await authorize('openid photos.read')).location;
    expect(Object.fromEntries(exact.searchParams)).toMatchObject({ error: 'invalid_scope', error_description: refusedScope('photos.read') });
    await setScopeStrategy(null);
  });
});

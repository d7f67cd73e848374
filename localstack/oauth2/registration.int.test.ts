import { Configuration, OidcApi } from '@ory/client';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { call, newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { startTestStack } from '../test-support/control-plane';

// OpenID Connect Dynamic Client Registration on a project's public API, as Hydra serves it: off until the
// project's config enables it, then a relying party (openid-client) registers itself and manages its client with
// the registration access token (@ory/client's OidcApi), and nothing else can.

let stack: LocalStack;
let owner: TestUser;
let project: TestProject;
let other: TestProject;

const asRegistrant = (p: TestProject, token?: string) => new OidcApi(new Configuration({ basePath: p.base, ...(token ? { accessToken: token } : {}) }));

async function setRegistration(p: TestProject, enabled: boolean) {
  const answer = await owner.projects.patchProject({
    projectId: p.id,
    jsonPatch: [{ op: 'add', path: '/services/oauth2/config/oidc', value: { dynamic_client_registration: { enabled } } }],
  });
  expect(answer.status).toBe(200);
}

/** The status and body of a refused @ory/client call. */
const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (err) {
    const response = (err as { response?: { status: number; data: unknown } }).response;
    if (response) return { status: response.status, body: response.data };
    throw err;
  }
  throw new Error('expected the call to be refused');
};

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'Registrar');
  project = await projectWithKey(stack, owner, 'Registration');
  other = await projectWithKey(stack, owner, 'No registration');
});

afterAll(async () => {
  await stack?.close();
});

describe('dynamic client registration', () => {
  it('is off by default, with Hydra’s 404, and named in discovery', async () => {
    const doc = (await (await fetch(`${project.base}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(doc.registration_endpoint).toBe(`${project.base}/oauth2/register`);
    const answer = await call(project.base, 'POST', '/oauth2/register', { body: { client_name: 'Too early' } });
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'Not Found', error_description: 'Dynamic registration is not enabled.' });
  });

  it('is not named by the console’s own server, which has no registration paths', async () => {
    const doc = (await (await fetch(`${stack.url}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(doc.issuer).toBe(stack.url);
    expect(doc).not.toHaveProperty('registration_endpoint');
    expect((await fetch(`${stack.url}/oauth2/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(404);
  });

  it('registers a relying party that then gets tokens, and lets only its registration token manage it', async () => {
    await setRegistration(project, true);
    const config = await oidc.dynamicClientRegistration(
      new URL(project.base),
      { client_name: 'Self-registered', grant_types: ['client_credentials'], scope: 'reports.read', token_endpoint_auth_method: 'client_secret_basic' },
      undefined,
      { execute: [oidc.allowInsecureRequests] },
    );
    const registered = config.clientMetadata();
    expect(registered).toMatchObject({ client_name: 'Self-registered', scope: 'reports.read', registration_client_uri: `${project.base}/oauth2/register/${registered.client_id}` });
    expect(registered.client_secret).toBeTruthy();
    const token = registered.registration_access_token as string;
    expect(token).toMatch(/^ory_at_/);
    expect((await oidc.clientCredentialsGrant(config, { scope: 'reports.read' })).scope).toBe('reports.read');

    // The project's admin API sees the client like any other, without the token.
    const admin = await call(project.base, 'GET', `/admin/clients/${registered.client_id}`, { key: project.key });
    expect(admin.status).toBe(200);
    expect(admin.body).not.toHaveProperty('registration_access_token');
    expect(JSON.stringify(admin.body)).not.toContain('registration_access_token_signature');

    const id = registered.client_id;
    const got = await asRegistrant(project, token).getOidcDynamicClient({ id });
    expect(got.data).toMatchObject({ client_id: id, client_name: 'Self-registered' });
    expect(got.data).not.toHaveProperty('client_secret');
    const wrong = { status: 401, body: { error: 'Unauthorized', error_description: 'The requested OAuth 2.0 client does not exist or you provided incorrect credentials.' } };
    expect(await refusal(asRegistrant(project, 'ory_at_not-the-token').getOidcDynamicClient({ id }))).toEqual(wrong);
    expect(await refusal(asRegistrant(project).getOidcDynamicClient({ id }))).toEqual(wrong);
    // Another project knows neither the client nor, while its registration is off, the endpoint.
    expect((await refusal(asRegistrant(other, token).getOidcDynamicClient({ id }))).status).toBe(404);
    await setRegistration(other, true);
    expect(await refusal(asRegistrant(other, token).getOidcDynamicClient({ id }))).toEqual(wrong);

    // A replacement hands out a new token; the old one stops working.
    const set = await asRegistrant(project, token).setOidcDynamicClient({ id, oAuth2Client: { client_name: 'Renamed', grant_types: ['client_credentials'], scope: 'reports.read' } });
    expect(set.data).toMatchObject({ client_id: id, client_name: 'Renamed' });
    const next = set.data.registration_access_token!;
    expect(next).toBeTruthy();
    expect(next).not.toBe(token);
    expect(await refusal(asRegistrant(project, token).getOidcDynamicClient({ id }))).toEqual(wrong);
    // The secret survived the replacement.
    expect((await oidc.clientCredentialsGrant(config, { scope: 'reports.read' })).access_token).toBeTruthy();

    expect((await asRegistrant(project, next).deleteOidcDynamicClient({ id })).status).toBe(204);
    expect(await refusal(asRegistrant(project, next).getOidcDynamicClient({ id }))).toEqual(wrong);

    await setRegistration(project, false);
    expect((await call(project.base, 'POST', '/oauth2/register', { body: { client_name: 'Too late' } })).status).toBe(404);
    await setRegistration(project, true);
  });

  it('refuses what a registrant may not choose, as Hydra does', async () => {
    const api = asRegistrant(project);
    expect(await refusal(api.createOidcDynamicClient({ oAuth2Client: { client_name: 'Mine', client_secret: 'my-own-secret' } }))).toEqual({
      status: 400,
      body: { error: 'The request was malformed or contained invalid parameters', error_description: 'It is not allowed to choose your own OAuth2 Client secret.' },
    });
    expect(await refusal(api.createOidcDynamicClient({ oAuth2Client: { metadata: { plan: 'free' } } }))).toMatchObject({ status: 400, body: { error: 'invalid_client_metadata' } });
    expect(await refusal(api.createOidcDynamicClient({ oAuth2Client: { skip_consent: true } }))).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: "'skip_consent' cannot be set for dynamic client registration" },
    });
    expect(await refusal(api.createOidcDynamicClient({ oAuth2Client: { access_token_strategy: 'jwt' } }))).toMatchObject({ status: 400 });
    const notJson = await fetch(`${project.base}/oauth2/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    expect(notJson.status).toBe(400);
    // A chosen client_id is replaced, as Hydra does.
    const { data } = await api.createOidcDynamicClient({ oAuth2Client: { client_id: 'chosen-id', client_name: 'Chooser' } });
    expect(data.client_id).not.toBe('chosen-id');
  });
});

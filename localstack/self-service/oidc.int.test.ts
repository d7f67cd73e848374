import { Configuration, OAuth2Api } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { adminApis, newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { startTestStack } from '../test-support/control-plane';

// Project B signs people in with project A's OAuth2 server as a generic OpenID Connect provider: B's browser
// flows, A's authorization endpoint and B's callback, all over HTTP on one stack. A's login and consent UI is
// played through A's admin API (accepting or rejecting its login and consent requests).

let stack: LocalStack;
let owner: TestUser;
let idp: TestProject;
let app: TestProject;
let hydra: OAuth2Api;

/** A browser: one cookie jar for every host and path of the stack, redirects followed by hand. */
function browser() {
  const jar = new Map<string, string>();
  const go = async (url: string, init: { method?: string; form?: Record<string, string>; json?: unknown } = {}) => {
    const headers: Record<string, string> = { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '), accept: init.json !== undefined ? 'application/json' : 'text/html' };
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    } else if (init.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(init.json);
    }
    const res = await fetch(url, { method: init.method ?? (body ? 'POST' : 'GET'), headers, redirect: 'manual', ...(body ? { body } : {}) });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, pair.slice(pair.indexOf('=') + 1));
    }
    return res;
  };
  return { go, jar };
}

const location = (res: Response) => new URL(res.headers.get('location') ?? 'about:blank');
const csrf = (flow: any) => flow.ui.nodes.find((n: any) => n.attributes.name === 'csrf_token').attributes.value as string;

async function startFlow(b: ReturnType<typeof browser>, kind: 'login' | 'registration' | 'settings') {
  const ui = location(await b.go(`${app.base}/self-service/${kind}/browser`, { method: 'GET' }));
  const { status, body } = await readFlow(b, kind, ui.searchParams.get('flow')!);
  expect(status).toBe(200);
  return body;
}

async function readFlow(b: ReturnType<typeof browser>, kind: string, id: string) {
  const res = await fetch(`${app.base}/self-service/${kind}/flows?id=${id}`, {
    headers: { accept: 'application/json', cookie: [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ') },
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** At the provider: sign in as `subject` and consent, giving `claims` in the ID token; answers B's callback URL. */
async function atProvider(b: ReturnType<typeof browser>, authUrl: string, subject: string, claims: Record<string, unknown>) {
  const toLogin = location(await b.go(authUrl, { method: 'GET' }));
  const loginChallenge = toLogin.searchParams.get('login_challenge')!;
  expect(loginChallenge).toBeTruthy();
  const { data: login } = await hydra.acceptOAuth2LoginRequest({ loginChallenge, acceptOAuth2LoginRequest: { subject } });
  const toConsent = location(await b.go(login.redirect_to, { method: 'GET' }));
  const consentChallenge = toConsent.searchParams.get('consent_challenge')!;
  const { data: consent } = await hydra.acceptOAuth2ConsentRequest({
    consentChallenge,
    acceptOAuth2ConsentRequest: { grant_scope: ['openid', 'email', 'profile'], session: { id_token: claims } },
  });
  return location(await b.go(consent.redirect_to, { method: 'GET' }));
}

/** Submits the flow's provider button as a browser form; answers where B sends the browser (the provider). */
async function pressProvider(b: ReturnType<typeof browser>, flow: any, kind: string, fields: Record<string, string>) {
  const res = await b.go(`${app.base}/self-service/${kind}?flow=${flow.id}`, { form: { csrf_token: csrf(flow), ...fields } });
  expect(res.status).toBe(303);
  return location(res).href;
}

async function signUpWith(subject: string, claims: Record<string, unknown>) {
  const b = browser();
  const flow = await startFlow(b, 'registration');
  const callback = await atProvider(b, await pressProvider(b, flow, 'registration', { provider: 'acme' }), subject, claims);
  const done = await b.go(callback.href, { method: 'GET' });
  return { b, done };
}

const whoami = async (b: ReturnType<typeof browser>) => {
  const res = await fetch(`${app.base}/sessions/whoami`, { headers: { accept: 'application/json', cookie: [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
  return { status: res.status, body: (await res.json()) as any };
};

const errorOf = async (res: Response) => {
  expect(res.status).toBe(303);
  const id = location(res).searchParams.get('id');
  expect(id).toBeTruthy();
  return ((await (await fetch(`${app.base}/self-service/errors?id=${id}`)).json()) as any).error;
};

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'Federation');
  idp = await projectWithKey(stack, owner, 'Identity provider');
  app = await projectWithKey(stack, owner, 'Application');
  hydra = new OAuth2Api(new Configuration({ basePath: idp.base, accessToken: idp.key }));
  const { data: client } = await hydra.createOAuth2Client({
    oAuth2Client: {
      client_name: 'Application sign-in',
      redirect_uris: [`${app.base}/self-service/methods/oidc/callback/acme`, `${app.base}/self-service/methods/oidc/callback/corp-sso`],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      scope: 'openid email profile',
    },
  });
  const patched = await owner.projects.patchProject({
    projectId: app.id,
    jsonPatch: [
      {
        op: 'add',
        path: '/services/identity/config/selfservice',
        value: { methods: { oidc: {
          enabled: true,
          config: {
            providers: [
              {
                id: 'acme',
                provider: 'generic',
                label: 'Acme',
                client_id: client.client_id,
                client_secret: client.client_secret,
                issuer_url: idp.base,
                scope: ['openid', 'email', 'profile'],
                mapper_url: '',
              },
            ],
          },
        } } },
      },
    ],
  });
  expect(patched.status).toBe(200);
});

afterAll(async () => {
  await stack?.close();
});

describe("social sign-in with another project's OAuth2 server", () => {
  it('registers from the claims, signs in again, and offers the provider on every flow', async () => {
    const b0 = browser();
    const login = await startFlow(b0, 'login');
    expect(login.ui.nodes.find((n: any) => n.group === 'oidc')).toMatchObject({
      type: 'input',
      attributes: { name: 'provider', type: 'submit', value: 'acme', node_type: 'input' },
      meta: { label: { id: 1010002, text: 'Sign in with Acme', type: 'info', context: { provider: 'Acme', provider_id: 'acme' } } },
    });

    const { b, done } = await signUpWith('alice-sub', { email: 'Alice@Example.com', email_verified: true, name: 'Alice Liddell' });
    expect(done.status).toBe(303);
    expect(location(done).href).toBe(`${app.base}/ui/`);
    const me = await whoami(b);
    expect(me.status).toBe(200);
    expect(me.body.identity.traits).toMatchObject({ email: 'Alice@Example.com', name: 'Alice Liddell' });
    expect(me.body.authentication_methods[0].method).toBe('oidc');
    const { identity } = adminApis(app, app.key);
    const { data: stored } = await identity.getIdentity({ id: me.body.identity.id, includeCredential: ['oidc'] });
    expect(stored.credentials?.oidc?.identifiers).toEqual(['acme:alice-sub']);
    expect(stored.credentials?.password).toBeUndefined();
    expect(stored.verifiable_addresses?.[0]).toMatchObject({ value: 'alice@example.com', verified: true });

    // A new browser signs in as the same person: the same identity, no second one.
    const again = browser();
    const flow = await startFlow(again, 'login');
    const callback = await atProvider(again, await pressProvider(again, flow, 'login', { method: 'oidc', provider: 'acme' }), 'alice-sub', { email: 'alice@example.com' });
    expect((await again.go(callback.href, { method: 'GET' })).status).toBe(303);
    expect((await whoami(again)).body.identity.id).toBe(me.body.identity.id);
    const { data: all } = await identity.listIdentities({ credentialsIdentifier: 'acme:alice-sub' });
    expect(all).toHaveLength(1);
  });

  it("sends an email of an organization's domain to the organization's provider (identifier first), and no other", async () => {
    const plan = await fetch(`${stack.url}/local/plan`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: app.id, plan: 'Growth@0' }) });
    expect(plan.status).toBe(204);
    const { data: org } = await owner.projects.createOrganization({ projectId: app.id, organizationBody: { label: 'Corp', domains: ['corp.example.com'] } });
    const { data: config } = await owner.projects.getProject({ projectId: app.id });
    const acme = (config.services.identity!.config as any).selfservice.methods.oidc.config.providers[0];
    const added = await owner.projects.patchProject({
      projectId: app.id,
      jsonPatch: [{ op: 'add', path: '/services/identity/config/selfservice/methods/oidc/config/providers/-', value: { ...acme, id: 'corp-sso', label: 'Corp', organization_id: org.id } }],
    });
    expect(added.status).toBe(200);

    const b = browser();
    const flow = await startFlow(b, 'login');
    // The organization's provider is no button of its own.
    expect(flow.ui.nodes.filter((n: any) => n.group === 'oidc').map((n: any) => n.attributes.value)).toEqual(['acme']);
    for (const body of [
      { method: 'identifier_first', identifier: 'Bob@Corp.example.com' },
      { method: 'password', identifier: 'bob@corp.example.com', password: 'not-checked-here' },
    ]) {
      const res = await b.go(`${app.base}/self-service/login?flow=${flow.id}`, { json: { ...body, csrf_token: csrf(flow) } });
      expect(res.status).toBe(422);
      const to = new URL(((await res.json()) as any).redirect_browser_to);
      expect(to.href.startsWith(`${idp.base}/oauth2/auth`)).toBe(true);
      expect(to.searchParams.get('redirect_uri')).toBe(`${app.base}/self-service/methods/oidc/callback/corp-sso`);
    }
    // Another domain signs in with its password as before.
    const other = await b.go(`${app.base}/self-service/login?flow=${flow.id}`, { json: { method: 'password', identifier: 'bob@elsewhere.example.com', password: 'wrong-password-1', csrf_token: csrf(flow) } });
    expect(other.status).toBe(400);
    expect(((await other.json()) as any).ui.messages[0].id).toBe(4000006);

    // Through the organization's provider the new identity carries the organization, on every API.
    const orgFlow = await startFlow(b, 'login');
    const sent = await b.go(`${app.base}/self-service/login?flow=${orgFlow.id}`, { json: { method: 'identifier_first', identifier: 'dana@corp.example.com', csrf_token: csrf(orgFlow) } });
    const callback = await atProvider(b, ((await sent.json()) as any).redirect_browser_to, 'dana-sub', { email: 'dana@corp.example.com', name: 'Dana' });
    expect((await b.go(callback.href, { method: 'GET' })).status).toBe(303);
    const dana = (await whoami(b)).body.identity;
    expect(dana.organization_id).toBe(org.id);
    const { identity } = adminApis(app, app.key);
    expect((await identity.getIdentity({ id: dana.id })).data.organization_id).toBe(org.id);
    const { data: members } = await identity.listIdentities({ organizationId: org.id });
    expect(members.map((m) => m.id)).toEqual([dana.id]);
  });

  it('answers a JSON submit with the navigation to the provider', async () => {
    const b = browser();
    const flow = await startFlow(b, 'registration');
    const res = await b.go(`${app.base}/self-service/registration?flow=${flow.id}`, { json: { method: 'oidc', provider: 'acme', csrf_token: csrf(flow) } });
    expect(res.status).toBe(422);
    const body = (await res.json()) as any;
    expect(body.error.id).toBe('browser_location_change_required');
    const to = new URL(body.redirect_browser_to);
    expect(to.href.startsWith(`${idp.base}/oauth2/auth`)).toBe(true);
    expect(to.searchParams.get('code_challenge_method')).toBe('S256');
    expect(to.searchParams.get('nonce')).toBeTruthy();
    expect(to.searchParams.get('redirect_uri')).toBe(`${app.base}/self-service/methods/oidc/callback/acme`);
    expect(to.searchParams.has('prompt')).toBe(false);
  });

  it("passes Kratos' allowed upstream parameters to the provider, never a login_hint, and refuses a malformed set", async () => {
    const b = browser();
    const flow = await startFlow(b, 'login');
    const to = new URL(
      await pressProvider(b, flow, 'login', { provider: 'acme', 'upstream_parameters.prompt': 'select_account', 'upstream_parameters.hd': 'example.com', 'upstream_parameters.login_hint': 'eve@example.com' }),
    );
    expect(to.searchParams.get('prompt')).toBe('select_account');
    expect(to.searchParams.get('hd')).toBe('example.com');
    expect(to.searchParams.has('login_hint')).toBe(false);

    const viaJson = await b.go(`${app.base}/self-service/login?flow=${flow.id}`, { json: { method: 'oidc', provider: 'acme', csrf_token: csrf(flow), upstream_parameters: { acr_values: 'mfa' } } });
    expect(viaJson.status).toBe(422);
    expect(new URL(((await viaJson.json()) as any).redirect_browser_to).searchParams.get('acr_values')).toBe('mfa');

    const malformed = await b.go(`${app.base}/self-service/login?flow=${flow.id}`, { json: { method: 'oidc', provider: 'acme', csrf_token: csrf(flow), upstream_parameters: { prompt: 1 } } });
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(await malformed.json())).toContain('upstream_parameters');
  });

  it('asks for what the claims lack, then registers with it', async () => {
    const { b, done } = await signUpWith('nomail-sub', { name: 'No Mail' });
    const to = location(done);
    expect(to.pathname).toMatch(/\/ui\/registration$/);
    const { body: flow } = await readFlow(b, 'registration', to.searchParams.get('flow')!);
    const email = flow.ui.nodes.find((n: any) => n.attributes.name === 'traits.email');
    expect(email.messages).toEqual([expect.objectContaining({ id: 4000002, text: 'Property email is missing.' })]);
    expect(flow.ui.nodes.find((n: any) => n.group === 'oidc').meta.label).toMatchObject({ id: 1040003, text: 'Continue' });
    const res = await b.go(`${app.base}/self-service/registration?flow=${flow.id}`, {
      form: { csrf_token: csrf(flow), provider: 'acme', 'traits.email': 'nomail@example.com', 'traits.name': 'No Mail' },
    });
    expect(res.status).toBe(303);
    expect((await whoami(b)).body.identity.traits.email).toBe('nomail@example.com');
  });

  it('turns an email taken by a password account into a login that links the provider', async () => {
    const owner = browser();
    const reg = await startFlow(owner, 'registration');
    const created = await owner.go(`${app.base}/self-service/registration?flow=${reg.id}`, {
      json: { method: 'password', csrf_token: csrf(reg), traits: { email: 'bob@example.com', name: 'Bob' }, password: 'a-long-and-unusual-passphrase-42' },
    });
    expect(created.status).toBe(200);
    const bobId = ((await created.json()) as any).identity.id;

    const { b, done } = await signUpWith('bob-sub', { email: 'bob@example.com', name: 'Bob' });
    const to = location(done);
    expect(to.pathname).toMatch(/\/ui\/login$/);
    const { body: login } = await readFlow(b, 'login', to.searchParams.get('flow')!);
    expect(login.ui.messages[0]).toMatchObject({ id: 1010016, context: { duplicateIdentifier: 'bob@example.com', provider: 'Acme' } });
    // Kratos' account-linking form: the UI hides the organization sign-in, the identifier is kept hidden, the button says it links.
    expect(to.searchParams.get('no_org_ui')).toBe('true');
    expect(login.ui.nodes.find((n: any) => n.attributes.name === 'identifier').attributes).toMatchObject({ type: 'hidden', value: 'bob@example.com' });
    expect(login.ui.nodes.find((n: any) => n.attributes.name === 'method' && n.attributes.value === 'password').meta.label).toMatchObject({ id: 1010017, text: 'Sign in and link' });
    const signedIn = await b.go(`${app.base}/self-service/login?flow=${login.id}`, {
      json: { method: 'password', csrf_token: csrf(login), identifier: 'bob@example.com', password: 'a-long-and-unusual-passphrase-42' },
    });
    expect(signedIn.status).toBe(200);
    const { data: bob } = await adminApis(app, app.key).identity.getIdentity({ id: bobId });
    expect(bob.credentials?.oidc?.identifiers).toEqual(['acme:bob-sub']);
  });

  it('links and unlinks the provider in settings', async () => {
    const b = browser();
    const reg = await startFlow(b, 'registration');
    await b.go(`${app.base}/self-service/registration?flow=${reg.id}`, {
      json: { method: 'password', csrf_token: csrf(reg), traits: { email: 'carol@example.com', name: 'Carol' }, password: 'a-long-and-unusual-passphrase-43' },
    });
    const settings = await startFlow(b, 'settings');
    // The organization's provider (added above) is reached through its organization, never linked here.
    expect(settings.ui.nodes.filter((n: any) => n.group === 'oidc').map((n: any) => n.attributes.value)).toEqual(['acme']);
    expect(settings.ui.nodes.find((n: any) => n.group === 'oidc')).toMatchObject({
      attributes: { name: 'link', value: 'acme' },
      meta: { label: { id: 1050002, text: 'Link Acme' } },
    });
    const callback = await atProvider(b, await pressProvider(b, settings, 'settings', { link: 'acme' }), 'carol-sub', { email: 'carol@example.com' });
    const back = location(await b.go(callback.href, { method: 'GET' }));
    expect(back.pathname).toMatch(/\/ui\/settings$/);
    const { body: linked } = await readFlow(b, 'settings', back.searchParams.get('flow')!);
    expect(linked.state).toBe('success');
    expect(linked.ui.messages[0]).toMatchObject({ id: 1050001 });
    expect(linked.ui.nodes.find((n: any) => n.group === 'oidc')).toMatchObject({ attributes: { name: 'unlink', value: 'acme' }, meta: { label: { id: 1050003 } } });

    const unlinked = await b.go(`${app.base}/self-service/settings?flow=${linked.id}`, { json: { method: 'oidc', unlink: 'acme', csrf_token: csrf(linked) } });
    expect(unlinked.status).toBe(200);
    const after = (await unlinked.json()) as any;
    expect(after.ui.nodes.find((n: any) => n.group === 'oidc').attributes.name).toBe('link');
  });

  it("keeps the last credential: unlinking it answers the settings flow with Kratos' message", async () => {
    const { b } = await signUpWith('erin-sub', { email: 'erin@example.com', name: 'Erin' });
    const settings = await startFlow(b, 'settings');
    // No unlink button is offered for the only credential, and a submit that asks anyway is refused on the flow.
    expect(settings.ui.nodes.filter((n: any) => n.group === 'oidc' && n.attributes.name === 'unlink')).toEqual([]);
    for (const provider of ['acme', 'nowhere']) {
      const res = await b.go(`${app.base}/self-service/settings?flow=${settings.id}`, { json: { method: 'oidc', unlink: provider, csrf_token: csrf(settings) } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).ui.messages).toEqual([
        expect.objectContaining({ id: 4000001, type: 'error', text: 'can not unlink OpenID Connect connection because it is the last remaining first factor credential' }),
      ]);
    }
    const me = (await whoami(b)).body.identity;
    const { data: stored } = await adminApis(app, app.key).identity.getIdentity({ id: me.id, includeCredential: ['oidc'] });
    expect(stored.credentials?.oidc?.identifiers).toEqual(['acme:erin-sub']);

    // With a second credential, a provider it never linked is named as such.
    const twice = browser();
    const reg = await startFlow(twice, 'registration');
    await twice.go(`${app.base}/self-service/registration?flow=${reg.id}`, {
      json: { method: 'password', csrf_token: csrf(reg), traits: { email: 'frank@example.com', name: 'Frank' }, password: 'a-long-and-unusual-passphrase-45' },
    });
    const own = await startFlow(twice, 'settings');
    const callback = await atProvider(twice, await pressProvider(twice, own, 'settings', { link: 'acme' }), 'frank-sub', { email: 'frank@example.com' });
    const back = location(await twice.go(callback.href, { method: 'GET' }));
    const unknown = await twice.go(`${app.base}/self-service/settings?flow=${back.searchParams.get('flow')}`, { json: { method: 'oidc', unlink: 'nowhere', csrf_token: csrf(own) } });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as any).ui.messages).toEqual([expect.objectContaining({ id: 4000001, text: 'can not unlink non-existing OpenID Connect connection' })]);
  });

  it("refuses a callback whose state is not the browser's, and reports a provider's refusal", async () => {
    const b = browser();
    const flow = await startFlow(b, 'login');
    const authUrl = new URL(await pressProvider(b, flow, 'login', { provider: 'acme' }));
    const wrong = await b.go(`${app.base}/self-service/methods/oidc/callback/acme?code=abc&state=not-the-state`, { method: 'GET' });
    expect(await errorOf(wrong)).toMatchObject({
      code: 400,
      reason: 'Unable to complete OpenID Connect flow because the query state parameter does not match the state parameter from the session cookie.',
    });

    // The person refuses at the provider: its error comes back through the callback.
    const toLogin = location(await b.go(authUrl.href, { method: 'GET' }));
    const { data: rejected } = await hydra.rejectOAuth2LoginRequest({
      loginChallenge: toLogin.searchParams.get('login_challenge')!,
      rejectOAuth2Request: { error: 'access_denied', error_description: 'The resource owner denied the request' },
    });
    const callback = location(await b.go(rejected.redirect_to, { method: 'GET' }));
    expect(callback.pathname).toBe(new URL(`${app.base}/self-service/methods/oidc/callback/acme`).pathname);
    // As Kratos' login error handler does: the reason is the flow's message, and the browser is back on the flow's page.
    const refused = await b.go(callback.href, { method: 'GET' });
    expect(refused.status).toBe(303);
    const back = location(refused);
    expect(back.pathname).toMatch(/\/ui\/login$/);
    expect(back.searchParams.get('flow')).toBe(flow.id);
    const { body: shown } = await readFlow(b, 'login', flow.id);
    expect(shown.ui.messages).toEqual([
      expect.objectContaining({ id: 4000001, type: 'error', text: expect.stringContaining('Unable to complete OpenID Connect flow because the OpenID Provider returned error "access_denied"') }),
    ]);
    expect(await whoami(b)).toMatchObject({ status: 401 });

    // A browser without the continuity cookie cannot resume any flow (Kratos' continuity error).
    const stranger = await fetch(`${app.base}/self-service/methods/oidc/callback/acme?code=abc&state=${authUrl.searchParams.get('state')}`, { redirect: 'manual' });
    expect(await errorOf(stranger)).toMatchObject({
      code: 400,
      message: 'no resumable session found',
      reason: expect.stringContaining('The browser does not contain the necessary cookie to resume the session.'),
    });
  });

  it("uses PKCE under `pkce: auto` only when the provider's discovery advertises S256, and always under `force`", async () => {
    const { data: config } = await owner.projects.getProject({ projectId: app.id });
    const acme = (config.services.identity!.config as any).selfservice.methods.oidc.config.providers[0];
    // Configured by endpoints, not an issuer: nothing advertises PKCE.
    const byEndpoints = { ...acme, issuer_url: undefined, auth_url: `${idp.base}/oauth2/auth`, token_url: `${idp.base}/oauth2/token` };
    const added = await owner.projects.patchProject({
      projectId: app.id,
      jsonPatch: [
        { op: 'add', path: '/services/identity/config/selfservice/methods/oidc/config/providers/-', value: { ...byEndpoints, id: 'manual-auto', pkce: 'auto' } },
        { op: 'add', path: '/services/identity/config/selfservice/methods/oidc/config/providers/-', value: { ...byEndpoints, id: 'manual-force', pkce: 'force' } },
        { op: 'add', path: '/services/identity/config/selfservice/methods/oidc/config/providers/-', value: { ...acme, id: 'acme-never', pkce: 'never' } },
      ],
    });
    expect(added.status).toBe(200);
    const b = browser();
    const flow = await startFlow(b, 'login');
    const challenge = async (provider: string) => new URL(await pressProvider(b, flow, 'login', { provider })).searchParams.get('code_challenge_method');
    expect(await challenge('acme')).toBe('S256');
    expect(await challenge('manual-auto')).toBeNull();
    expect(await challenge('manual-force')).toBe('S256');
    expect(await challenge('acme-never')).toBeNull();
  });

  it('signs no new subject up from a login flow while registration is disabled: the login flow says so', async () => {
    // The project has no `flows` section of its own (its `selfservice` was set whole above).
    const flows = '/services/identity/config/selfservice/flows';
    const off = await owner.projects.patchProject({ projectId: app.id, jsonPatch: [{ op: 'add', path: flows, value: { registration: { enabled: false } } }] });
    expect(off.status).toBe(200);
    try {
      const b = browser();
      const flow = await startFlow(b, 'login');
      const callback = await atProvider(b, await pressProvider(b, flow, 'login', { provider: 'acme' }), 'gina-sub', { email: 'gina@example.com' });
      const back = location(await b.go(callback.href, { method: 'GET' }));
      expect(back.pathname).toMatch(/\/ui\/login$/);
      const { body: shown } = await readFlow(b, 'login', back.searchParams.get('flow')!);
      expect(shown.ui.messages).toEqual([expect.objectContaining({ id: 4000001, text: 'Registration is not allowed because it was disabled.' })]);
      const { data: none } = await adminApis(app, app.key).identity.listIdentities({ credentialsIdentifier: 'acme:gina-sub' });
      expect(none).toEqual([]);
    } finally {
      expect((await owner.projects.patchProject({ projectId: app.id, jsonPatch: [{ op: 'remove', path: flows }] })).status).toBe(200);
    }
  });
});

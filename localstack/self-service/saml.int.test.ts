import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { adminApis, newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { startTestStack } from '../test-support/control-plane';
import { startSamlTestIdp, type SamlTestIdp } from '../saml-idp/idp';

// A project signs people in with SAML against the local test identity provider, end to end over HTTP: the
// login flow's button, the AuthnRequest redirect, the identity provider's signed answer posted to the project's
// assertion consumer service, registration from the assertion and sign-in again. Answers that are not signed,
// or whose signed assertion is wrapped around another one, are refused.

let stack: LocalStack;
let owner: TestUser;
let app: TestProject;
let idp: SamlTestIdp;

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
type Browser = ReturnType<typeof browser>;

const location = (res: Response) => new URL(res.headers.get('location') ?? 'about:blank');
const csrf = (flow: any) => flow.ui.nodes.find((n: any) => n.attributes.name === 'csrf_token').attributes.value as string;
const cookies = (b: Browser) => [...b.jar].map(([k, v]) => `${k}=${v}`).join('; ');

async function startFlow(b: Browser, kind: 'login' | 'registration') {
  const ui = location(await b.go(`${app.base}/self-service/${kind}/browser`, { method: 'GET' }));
  const res = await fetch(`${app.base}/self-service/${kind}/flows?id=${ui.searchParams.get('flow')}`, { headers: { accept: 'application/json', cookie: cookies(b) } });
  expect(res.status).toBe(200);
  return (await res.json()) as any;
}

/** Presses the SAML button of a new flow; answers the AuthnRequest the browser is sent to, as the identity provider reads it. */
async function toIdp(b: Browser, kind: 'login' | 'registration' = 'login') {
  const flow = await startFlow(b, kind);
  const res = await b.go(`${app.base}/self-service/${kind}?flow=${flow.id}`, { form: { csrf_token: csrf(flow), method: 'saml', provider: 'corp' } });
  expect(res.status).toBe(303);
  const to = location(res);
  expect(to.href.startsWith(`${idp.url}/sso?`)).toBe(true);
  return { flow, ...idp.readRequest(to.href) };
}

const post = (b: Browser, answer: { acsUrl: string; SAMLResponse: string; RelayState: string }) =>
  b.go(answer.acsUrl, { form: { SAMLResponse: answer.SAMLResponse, RelayState: answer.RelayState } });

const whoami = async (b: Browser) => {
  const res = await fetch(`${app.base}/sessions/whoami`, { headers: { accept: 'application/json', cookie: cookies(b) } });
  return { status: res.status, body: (await res.json()) as any };
};

const errorOf = async (res: Response) => {
  expect(res.status).toBe(303);
  const id = location(res).searchParams.get('id');
  expect(id).toBeTruthy();
  return ((await (await fetch(`${app.base}/self-service/errors?id=${id}`)).json()) as any).error;
};

beforeAll(async () => {
  [stack, idp] = await Promise.all([startTestStack(), startSamlTestIdp()]);
  owner = await newUser(stack, 'Federation');
  app = await projectWithKey(stack, owner, 'SAML application');
});

afterAll(async () => {
  await idp?.close();
  await stack?.close();
});

const samlProvider = (extra: Record<string, unknown> = {}) => ({ id: 'corp', label: 'Corp SSO', raw_idp_metadata_xml: idp.metadataXml, idp_metadata_url: idp.metadataUrl, ...extra });

describe('SAML sign-in against the local test identity provider', () => {
  it('needs the saml_sp feature of the plan to add a provider', async () => {
    const refused = await owner.projects
      .patchProject({ projectId: app.id, jsonPatch: [{ op: 'add', path: '/services/identity/config/selfservice', value: { methods: { saml: { enabled: true, config: { providers: [samlProvider()] } } } } }] })
      .catch((err: any) => err.response);
    expect(refused.status).toBe(403);
    expect(refused.data.error).toMatchObject({ id: 'feature_not_available', details: expect.objectContaining({ feature: 'saml_sp' }) });

    const plan = await fetch(`${stack.url}/local/plan`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: app.id, plan: 'enterprise' }) });
    expect(plan.status).toBe(204);
    const added = await owner.projects.patchProject({
      projectId: app.id,
      jsonPatch: [{ op: 'add', path: '/services/identity/config/selfservice', value: { methods: { saml: { enabled: true, config: { providers: [samlProvider()] } } } } }],
    });
    expect(added.status).toBe(200);
  });

  it('serves the service provider metadata at a stable URL', async () => {
    const res = await fetch(`${app.base}/self-service/methods/saml/metadata/corp`);
    expect(res.status).toBe(200);
    const xml = await res.text();
    expect(xml).toContain(`entityID="${app.base}/self-service/methods/saml/metadata/corp"`);
    expect(xml).toContain(`Location="${app.base}/self-service/methods/saml/acs/corp"`);
    expect((await fetch(`${app.base}/self-service/methods/saml/metadata/nobody`, { headers: { accept: 'application/json' } })).status).toBe(404);
  });

  it('offers the provider in the login flow, registers from the assertion, then signs the same person in again', async () => {
    const b = browser();
    const login = await startFlow(b, 'login');
    expect(login.ui.nodes.find((n: any) => n.group === 'saml')).toMatchObject({
      type: 'input',
      attributes: { name: 'provider', type: 'submit', value: 'corp' },
      meta: { label: { id: 1010002, text: 'Sign in with Corp SSO' } },
    });

    const { request, relayState } = await toIdp(b);
    expect(request.acsUrl).toBe(`${app.base}/self-service/methods/saml/acs/corp`);
    expect(request.issuer).toBe(`${app.base}/self-service/methods/saml/metadata/corp`);
    const done = await post(b, idp.respond(request, relayState, { subject: 'ada-1', email: 'Ada@Corp.example', firstName: 'Ada', lastName: 'Lovelace' }));
    expect(done.status).toBe(303);
    expect(location(done).href).toBe(`${app.base}/ui/`);
    const me = await whoami(b);
    expect(me.status).toBe(200);
    expect(me.body.identity.traits.email).toBe('Ada@Corp.example');
    expect(me.body.authentication_methods[0].method).toBe('saml');
    const { identity } = adminApis(app, app.key);
    const { data: stored } = await identity.getIdentity({ id: me.body.identity.id, includeCredential: ['saml'] });
    expect(stored.credentials?.saml?.identifiers).toEqual(['corp:ada-1']);

    // Another browser, the same subject: the same identity.
    const again = browser();
    const second = await toIdp(again);
    expect((await post(again, idp.respond(second.request, second.relayState, { subject: 'ada-1', email: 'ada@corp.example' }))).status).toBe(303);
    expect((await whoami(again)).body.identity.id).toBe(me.body.identity.id);
    const { data: all } = await identity.listIdentities({ credentialsIdentifier: 'corp:ada-1' });
    expect(all).toHaveLength(1);
  });

  it('refuses an unsigned assertion', async () => {
    const b = browser();
    const { request, relayState } = await toIdp(b);
    const error = await errorOf(await post(b, idp.respond(request, relayState, { subject: 'mallory', email: 'mallory@corp.example' }, { sign: 'none' })));
    expect(error).toMatchObject({ code: 400, reason: expect.stringContaining('Unable to complete SAML flow because the SAML response is invalid') });
    expect((await whoami(b)).status).toBe(401);
  });

  it("refuses a signed assertion wrapped around another one (signature wrapping), and one whose content was changed after signing", async () => {
    // Eve gets a genuine signed assertion for herself, then hides it inside a forged one naming Ada.
    const b = browser();
    const { request, relayState } = await toIdp(b);
    const genuine = idp.respond(request, relayState, { subject: 'eve', email: 'eve@corp.example' });
    const signed = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(genuine.xml)![0];
    const forged = signed
      .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
      .replace(/ID="[^"]+"/, 'ID="_forged"')
      .replace('>eve<', '>ada-1<')
      .replace('eve@corp.example', 'ada@corp.example');
    const wrapped = genuine.xml.replace(signed, forged.replace('</saml:Subject>', `</saml:Subject><saml:Advice>${signed}</saml:Advice>`));
    const wrapping = await post(b, { ...genuine, SAMLResponse: Buffer.from(wrapped).toString('base64') });
    expect(await errorOf(wrapping)).toMatchObject({ code: 400, reason: expect.stringContaining('SAML response is invalid') });
    expect((await whoami(b)).status).toBe(401);

    // The signed assertion itself, its subject changed.
    const c = browser();
    const next = await toIdp(c);
    const honest = idp.respond(next.request, next.relayState, { subject: 'eve', email: 'eve@corp.example' });
    const tampered = honest.xml.replace('>eve<', '>ada-1<');
    expect(await errorOf(await post(c, { ...honest, SAMLResponse: Buffer.from(tampered).toString('base64') }))).toMatchObject({ code: 400 });
    expect((await whoami(c)).status).toBe(401);
  });

  it('turns an email taken by a password account into a login that links the SAML provider', async () => {
    const owner = browser();
    const reg = await startFlow(owner, 'registration');
    const created = await owner.go(`${app.base}/self-service/registration?flow=${reg.id}`, {
      json: { method: 'password', csrf_token: csrf(reg), traits: { email: 'grace@corp.example' }, password: 'a-long-and-unusual-passphrase-44' },
    });
    expect(created.status).toBe(200);
    const graceId = ((await created.json()) as any).identity.id;

    const b = browser();
    const { request, relayState } = await toIdp(b);
    const done = await post(b, idp.respond(request, relayState, { subject: 'grace-1', email: 'grace@corp.example' }));
    const to = location(done);
    expect(to.pathname).toMatch(/\/ui\/login$/);
    const res = await fetch(`${app.base}/self-service/login/flows?id=${to.searchParams.get('flow')}`, { headers: { accept: 'application/json', cookie: cookies(b) } });
    const login = (await res.json()) as any;
    expect(login.ui.messages[0]).toMatchObject({ id: 1010016, context: { duplicateIdentifier: 'grace@corp.example', provider: 'Corp SSO' } });
    const signedIn = await b.go(`${app.base}/self-service/login?flow=${login.id}`, {
      json: { method: 'password', csrf_token: csrf(login), identifier: 'grace@corp.example', password: 'a-long-and-unusual-passphrase-44' },
    });
    expect(signedIn.status).toBe(200);
    const { data: grace } = await adminApis(app, app.key).identity.getIdentity({ id: graceId });
    expect(grace.credentials?.saml?.identifiers).toEqual(['corp:grace-1']);
  });

  it("refuses an answer to another browser's request, and a replayed one", async () => {
    const alice = browser();
    const mine = await toIdp(alice);
    const answer = idp.respond(mine.request, mine.relayState, { subject: 'alice', email: 'alice@corp.example' });
    // Another browser posts Alice's answer: it has no request of its own to match.
    const other = browser();
    expect(await errorOf(await post(other, answer))).toMatchObject({ code: 400, reason: expect.stringContaining('does not belong to the flow started in this browser') });
    expect((await post(alice, answer)).status).toBe(303);
    expect((await whoami(alice)).status).toBe(200);
    // The request is spent.
    expect((await errorOf(await post(alice, answer))).code).toBe(400);
  });

  it("sends an email of an organization's domain to the organization's SAML provider (identifier first)", async () => {
    const { data: org } = await owner.projects.createOrganization({ projectId: app.id, organizationBody: { label: 'Initech', domains: ['initech.example'] } });
    const added = await owner.projects.patchProject({
      projectId: app.id,
      jsonPatch: [{ op: 'add', path: '/services/identity/config/selfservice/methods/saml/config/providers/-', value: samlProvider({ id: 'initech', label: 'Initech', organization_id: org.id }) }],
    });
    expect(added.status).toBe(200);
    const b = browser();
    const flow = await startFlow(b, 'login');
    expect(flow.ui.nodes.filter((n: any) => n.group === 'saml').map((n: any) => n.attributes.value)).toEqual(['corp']);
    const res = await b.go(`${app.base}/self-service/login?flow=${flow.id}`, { json: { method: 'identifier_first', identifier: 'Peter@Initech.example', csrf_token: csrf(flow) } });
    expect(res.status).toBe(422);
    const to = ((await res.json()) as any).redirect_browser_to as string;
    expect(to.startsWith(`${idp.url}/sso?`)).toBe(true);
    const { request, relayState } = idp.readRequest(to);
    expect(request.acsUrl).toBe(`${app.base}/self-service/methods/saml/acs/initech`);
    expect((await post(b, idp.respond(request, relayState, { email: 'peter@initech.example' }))).status).toBe(303);
    expect((await whoami(b)).body.identity.traits.email).toBe('peter@initech.example');
  });
});

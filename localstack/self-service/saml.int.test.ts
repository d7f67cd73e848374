import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { adminApis, newUser, projectWithKey, type TestProject, type TestUser } from '../test-support/admin-api';
import { startTestStack } from '../test-support/control-plane';
import { startSamlTestIdp, type SamlTestIdp } from '../saml-idp/idp';

// A project signs people in with SAML against the local test identity provider, end to end over HTTP: the
// login flow's button, the AuthnRequest redirect, the identity provider's signed answer posted to the project's
// assertion consumer service, registration from the assertion and sign-in again. Answers that are not signed,
// or whose signed assertion is wrapped around another one, are refused. The project signs its AuthnRequests
// with its own key (the identity provider checks them against the project's metadata) and decrypts
// assertions encrypted to it.

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

async function startFlow(b: Browser, kind: 'login' | 'registration' | 'settings') {
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
  return { flow, ...(await idp.readRequest(to.href)) };
}

type Answer = { acsUrl: string; SAMLResponse: string; RelayState: string };
const post = async (b: Browser, pending: Answer | Promise<Answer>) => {
  const answer = await pending;
  return b.go(answer.acsUrl, { form: { SAMLResponse: answer.SAMLResponse, RelayState: answer.RelayState } });
};

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

/** The certificate (base64 DER) of the metadata's key descriptor for `use`. */
const certificateOf = (xml: string, use: 'signing' | 'encryption') =>
  new RegExp(`<KeyDescriptor use="${use}">[\\s\\S]*?<ds:X509Certificate>([^<]+)</ds:X509Certificate>`).exec(xml)?.[1]?.replace(/\s+/g, '');

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
    // The project's certificate, for signing its requests and for encrypting assertions to it; never its key.
    expect(xml).toContain('AuthnRequestsSigned="true"');
    const signing = certificateOf(xml, 'signing');
    expect(signing).toMatch(/^MII/);
    expect(certificateOf(xml, 'encryption')).toBe(signing);
    expect(xml).not.toMatch(/PRIVATE KEY/);
    // The same key for the next request, and for every provider of the project.
    expect(certificateOf(await (await fetch(`${app.base}/self-service/methods/saml/metadata/corp`)).text(), 'signing')).toBe(signing);
  });

  it("signs its AuthnRequests; the identity provider checks them against the project's metadata and refuses a tampered one", async () => {
    const b = browser();
    const flow = await startFlow(b, 'login');
    const res = await b.go(`${app.base}/self-service/login?flow=${flow.id}`, { form: { csrf_token: csrf(flow), method: 'saml', provider: 'corp' } });
    const redirect = location(res);
    expect(redirect.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
    expect(redirect.searchParams.get('Signature')).toBeTruthy();
    const { request, relayState } = await idp.readRequest(redirect.href);
    expect(request.signed).toBe(true);

    // Another flow's RelayState, or a request sending the answer elsewhere, under the same signature.
    const relayed = new URL(redirect.href);
    relayed.searchParams.set('RelayState', crypto.randomUUID());
    await expect(idp.readRequest(relayed.href)).rejects.toThrow("the AuthnRequest's signature does not hold");
    const rewritten = new URL(redirect.href);
    const xml = inflateRawSync(Buffer.from(redirect.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
    const elsewhere = xml.replace(request.acsUrl, `${idp.url}/collect`);
    expect(elsewhere).not.toBe(xml);
    rewritten.searchParams.set('SAMLRequest', deflateRawSync(Buffer.from(elsewhere)).toString('base64'));
    await expect(idp.readRequest(rewritten.href)).rejects.toThrow("the AuthnRequest's signature does not hold");
    // Its sign-in page refuses it too.
    const page = await fetch(rewritten.href);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('signature does not hold');

    // The untouched request is answered and signs in.
    expect((await post(b, idp.respond(request, relayState, { subject: 'signed-1', email: 'signed@corp.example' }))).status).toBe(303);
    expect((await whoami(b)).status).toBe(200);
  });

  it('signs in through an identity provider that accepts only signed requests, over its pages; a provider set not to sign is refused there', async () => {
    const strict = await startSamlTestIdp({ wantSignedRequests: true });
    try {
      expect(strict.metadataXml).toContain('WantAuthnRequestsSigned="true"');
      const added = await owner.projects.patchProject({
        projectId: app.id,
        jsonPatch: [
          { op: 'add', path: '/services/identity/config/selfservice/methods/saml/config/providers/-', value: { id: 'strict', label: 'Strict', raw_idp_metadata_xml: strict.metadataXml } },
          { op: 'add', path: '/services/identity/config/selfservice/methods/saml/config/providers/-', value: { id: 'unsigned', label: 'Unsigned', raw_idp_metadata_xml: strict.metadataXml, sign_requests: false } },
        ],
      });
      expect(added.status).toBe(200);
      const press = async (b: Browser, provider: string) => {
        const flow = await startFlow(b, 'login');
        const res = await b.go(`${app.base}/self-service/login?flow=${flow.id}`, { form: { csrf_token: csrf(flow), method: 'saml', provider } });
        expect(res.status).toBe(303);
        return location(res);
      };

      // The identity provider's own pages: its sign-in form, then the form that posts the answer back.
      const b = browser();
      const to = await press(b, 'strict');
      const form = await fetch(to.href);
      expect(form.status).toBe(200);
      const query = /name="query" value="([^"]*)"/.exec(await form.text())![1]!.replace(/&amp;/g, '&');
      const answered = await fetch(`${strict.url}/sso`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ query, email: 'strict@corp.example', firstName: 'Stri', lastName: 'Ct' }).toString() });
      expect(answered.status).toBe(200);
      const html = await answered.text();
      const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(html)![1]!;
      expect(html).toContain(`action="${app.base}/self-service/methods/saml/acs/strict"`);
      expect((await post(b, { acsUrl: `${app.base}/self-service/methods/saml/acs/strict`, SAMLResponse: field('SAMLResponse'), RelayState: field('RelayState') })).status).toBe(303);
      expect((await whoami(b)).body.identity.traits.email).toBe('strict@corp.example');

      // Set not to sign: its metadata says so and has no signing certificate, and its request goes unsigned.
      const metadata = await (await fetch(`${app.base}/self-service/methods/saml/metadata/unsigned`)).text();
      expect(metadata).toContain('AuthnRequestsSigned="false"');
      expect(certificateOf(metadata, 'signing')).toBeUndefined();
      expect(certificateOf(metadata, 'encryption')).toMatch(/^MII/);
      const c = browser();
      const unsigned = await press(c, 'unsigned');
      expect(unsigned.searchParams.has('Signature')).toBe(false);
      await expect(strict.readRequest(unsigned.href)).rejects.toThrow('accepts only signed AuthnRequests');
      const refused = await fetch(unsigned.href);
      expect(refused.status).toBe(400);
      expect((await whoami(c)).status).toBe(401);
    } finally {
      await strict.close();
      // The tests after this one expect the project's first provider alone.
      await owner.projects.patchProject({
        projectId: app.id,
        jsonPatch: [{ op: 'replace', path: '/services/identity/config/selfservice/methods/saml/config/providers', value: [samlProvider()] }],
      });
    }
  });

  it('decrypts an assertion encrypted to the project, and still refuses one that is not signed', async () => {
    const b = browser();
    const { request, relayState } = await toIdp(b);
    const encrypted = await idp.respond(request, relayState, { subject: 'enc-1', email: 'secret@corp.example' }, { encrypt: true });
    expect(encrypted.xml).toContain('<saml:EncryptedAssertion>');
    expect(encrypted.xml).not.toContain('secret@corp.example');
    expect((await post(b, encrypted)).status).toBe(303);
    const me = await whoami(b);
    expect(me.status).toBe(200);
    expect(me.body.identity.traits.email).toBe('secret@corp.example');

    const c = browser();
    const next = await toIdp(c);
    const unsigned = await idp.respond(next.request, next.relayState, { subject: 'enc-2', email: 'forged@corp.example' }, { sign: 'none', encrypt: true });
    expect(unsigned.xml).toContain('<saml:EncryptedAssertion>');
    expect(await errorOf(await post(c, unsigned))).toMatchObject({ code: 400, reason: expect.stringContaining('SAML response is invalid') });
    expect((await whoami(c)).status).toBe(401);
  });

  it("signs out at the identity provider too: the project's logout sends a signed LogoutRequest and ends where the identity provider's LogoutResponse returns", async () => {
    const b = browser();
    const { request, relayState } = await toIdp(b);
    const answer = await idp.respond(request, relayState, { subject: 'slo-1', email: 'slo@corp.example' });
    expect((await post(b, answer)).status).toBe(303);
    const flow = (await (await b.go(`${app.base}/self-service/logout/browser`, { json: undefined, method: 'GET' })).json()) as any;
    const out = await b.go(flow.logout_url, { method: 'GET' });
    expect(out.status).toBe(303);
    const to = location(out);
    expect(to.href.startsWith(`${idp.url}/slo?`)).toBe(true);
    expect(to.searchParams.get('Signature')).toBeTruthy();
    // The session ends here whatever the identity provider does.
    expect((await whoami(b)).status).toBe(401);
    const logout = await idp.readLogoutRequest(to.href);
    expect(logout.request).toMatchObject({ nameId: 'slo-1', sessionIndex: answer.sessionIndex, signed: true, issuer: request.issuer });

    // Unsigned, or answering another request: refused, and the browser is not sent on.
    const unsigned = await idp.logoutResponse(logout.request, logout.relayState, { sign: 'none' });
    const sendBack = (m: { url: string; SAMLResponse?: string; SAMLRequest?: string; RelayState: string }, who = b) =>
      who.go(m.url, { form: { ...(m.SAMLResponse ? { SAMLResponse: m.SAMLResponse } : {}), ...(m.SAMLRequest ? { SAMLRequest: m.SAMLRequest } : {}), RelayState: m.RelayState } });
    expect(await errorOf(await sendBack(unsigned))).toMatchObject({ code: 400, reason: expect.stringContaining('logout response is invalid') });
    const other = await idp.logoutResponse({ ...logout.request, id: '_another' }, logout.relayState);
    expect(await errorOf(await sendBack(other))).toMatchObject({ code: 400, reason: expect.stringContaining('does not answer the logout request') });

    // The identity provider's own page answers and posts back; the logout ends at the default return.
    const page = await fetch(to.href);
    expect(page.status).toBe(200);
    const html = await page.text();
    const action = /action="([^"]+)"/.exec(html)![1]!;
    expect(action).toBe(`${app.base}/self-service/methods/saml/slo/corp`);
    const back = await sendBack({ url: action, SAMLResponse: /name="SAMLResponse" value="([^"]*)"/.exec(html)![1]!, RelayState: '' });
    expect(back.status).toBe(303);
    expect(location(back).href).toBe(`${app.base}/ui/login`);
    // Spent: the same answer again belongs to no logout of this browser.
    expect(await errorOf(await sendBack(await idp.logoutResponse(logout.request, logout.relayState)))).toMatchObject({ code: 400 });
  });

  it("ends the sessions an identity provider's signed LogoutRequest names, and answers it; an unsigned one ends nothing", async () => {
    const signIn = async () => {
      const b = browser();
      const { request, relayState } = await toIdp(b);
      const answer = await idp.respond(request, relayState, { subject: 'slo-2', email: 'slo2@corp.example' });
      expect((await post(b, answer)).status).toBe(303);
      expect((await whoami(b)).status).toBe(200);
      return { b, answer, issuer: request.issuer };
    };
    const [first, second, third] = [await signIn(), await signIn(), await signIn()];
    const idpSide = browser();
    const deliver = async (m: { url: string; SAMLRequest?: string; RelayState: string }) => idpSide.go(m.url, { form: { SAMLRequest: m.SAMLRequest!, RelayState: 'back-to-idp' } });

    const unsigned = await idp.logoutRequest(first.issuer, 'slo-2', first.answer.sessionIndex, { sign: 'none' });
    expect(await errorOf(await deliver(unsigned))).toMatchObject({ code: 400, reason: expect.stringContaining('logout request is invalid') });
    expect((await whoami(first.b)).status).toBe(200);

    // One session, by its index: answered with a signed LogoutResponse to the identity provider.
    const one = await deliver(await idp.logoutRequest(first.issuer, 'slo-2', first.answer.sessionIndex));
    expect(one.status).toBe(303);
    const answered = location(one);
    expect(answered.href.startsWith(`${idp.url}/slo?`)).toBe(true);
    expect(answered.searchParams.get('SAMLResponse')).toBeTruthy();
    expect(answered.searchParams.get('Signature')).toBeTruthy();
    expect(answered.searchParams.get('RelayState')).toBe('back-to-idp');
    const xml = inflateRawSync(Buffer.from(answered.searchParams.get('SAMLResponse')!, 'base64')).toString('utf8');
    expect(xml).toContain('LogoutResponse');
    expect(xml).toContain('urn:oasis:names:tc:SAML:2.0:status:Success');
    expect((await whoami(first.b)).status).toBe(401);
    expect((await whoami(second.b)).status).toBe(200);

    // No index: every session of the subject.
    expect((await deliver(await idp.logoutRequest(first.issuer, 'slo-2'))).status).toBe(303);
    expect((await whoami(second.b)).status).toBe(401);
    expect((await whoami(third.b)).status).toBe(401);
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
    const genuine = await idp.respond(request, relayState, { subject: 'eve', email: 'eve@corp.example' });
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
    const honest = await idp.respond(next.request, next.relayState, { subject: 'eve', email: 'eve@corp.example' });
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
    const answer = await idp.respond(mine.request, mine.relayState, { subject: 'alice', email: 'alice@corp.example' });
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
    const { request, relayState } = await idp.readRequest(to);
    expect(request.acsUrl).toBe(`${app.base}/self-service/methods/saml/acs/initech`);
    expect((await post(b, idp.respond(request, relayState, { email: 'peter@initech.example' }))).status).toBe(303);
    expect((await whoami(b)).body.identity.traits.email).toBe('peter@initech.example');
  });

  it('links the SAML provider to a signed-in account in settings, signs in with it, and unlinks it', async () => {
    const register = async (email: string) => {
      const b = browser();
      const reg = await startFlow(b, 'registration');
      const res = await b.go(`${app.base}/self-service/registration?flow=${reg.id}`, {
        json: { method: 'password', csrf_token: csrf(reg), traits: { email }, password: 'a-long-and-unusual-passphrase-45' },
      });
      expect(res.status).toBe(200);
      return { b, id: ((await res.json()) as any).identity.id as string };
    };
    const hedy = await register('hedy@corp.example');
    const settings = await startFlow(hedy.b, 'settings');
    // The organization's provider is not offered: its members reach it through their domain.
    expect(settings.ui.nodes.filter((n: any) => n.group === 'saml')).toEqual([
      expect.objectContaining({ attributes: expect.objectContaining({ name: 'link', value: 'corp', type: 'submit' }), meta: { label: expect.objectContaining({ id: 1050002, text: 'Link Corp SSO' }) } }),
    ]);
    const pressed = await hedy.b.go(`${app.base}/self-service/settings?flow=${settings.id}`, { form: { csrf_token: csrf(settings), method: 'saml', link: 'corp' } });
    expect(pressed.status).toBe(303);
    const { request, relayState } = await idp.readRequest(location(pressed).href);
    const back = await post(hedy.b, idp.respond(request, relayState, { subject: 'hedy-1', email: 'hedy@corp.example' }));
    expect(back.status).toBe(303);
    expect(location(back).pathname).toMatch(/\/ui\/settings$/);
    const linked = (await (await fetch(`${app.base}/self-service/settings/flows?id=${settings.id}`, { headers: { accept: 'application/json', cookie: cookies(hedy.b) } })).json()) as any;
    expect(linked.state).toBe('success');
    expect(linked.ui.messages[0]).toMatchObject({ id: 1050001 });
    expect(linked.ui.nodes.find((n: any) => n.group === 'saml')).toMatchObject({ attributes: { name: 'unlink', value: 'corp' }, meta: { label: { id: 1050003, text: 'Unlink Corp SSO' } } });
    const { identity } = adminApis(app, app.key);
    expect((await identity.getIdentity({ id: hedy.id, includeCredential: ['saml'] })).data.credentials?.saml?.identifiers).toEqual(['corp:hedy-1']);

    // Hedy now signs in through the identity provider.
    const elsewhere = browser();
    const sso = await toIdp(elsewhere);
    expect((await post(elsewhere, idp.respond(sso.request, sso.relayState, { subject: 'hedy-1', email: 'hedy@corp.example' }))).status).toBe(303);
    expect((await whoami(elsewhere)).body.identity.id).toBe(hedy.id);

    // Another account may neither link a subject that is Hedy's nor touch Hedy's settings flow.
    const ivy = await register('ivy@corp.example');
    const ivySettings = await startFlow(ivy.b, 'settings');
    const ivyPress = await ivy.b.go(`${app.base}/self-service/settings?flow=${ivySettings.id}`, { form: { csrf_token: csrf(ivySettings), method: 'saml', link: 'corp' } });
    const ivyRequest = await idp.readRequest(location(ivyPress).href);
    expect((await post(ivy.b, idp.respond(ivyRequest.request, ivyRequest.relayState, { subject: 'hedy-1', email: 'hedy@corp.example' }))).status).toBe(303);
    const refused = (await (await fetch(`${app.base}/self-service/settings/flows?id=${ivySettings.id}`, { headers: { accept: 'application/json', cookie: cookies(ivy.b) } })).json()) as any;
    expect(refused.ui.messages[0]).toMatchObject({ id: 4000007 });
    expect((await identity.getIdentity({ id: ivy.id, includeCredential: ['saml'] })).data.credentials?.saml).toBeUndefined();
    const intrude = await ivy.b.go(`${app.base}/self-service/settings?flow=${linked.id}`, { json: { method: 'saml', unlink: 'corp', csrf_token: csrf(ivySettings) } });
    expect([401, 403]).toContain(intrude.status);
    expect((await identity.getIdentity({ id: hedy.id, includeCredential: ['saml'] })).data.credentials?.saml?.identifiers).toEqual(['corp:hedy-1']);

    const unlinked = await hedy.b.go(`${app.base}/self-service/settings?flow=${linked.id}`, { json: { method: 'saml', unlink: 'corp', csrf_token: csrf(linked) } });
    expect(unlinked.status).toBe(200);
    const after = (await unlinked.json()) as any;
    expect(after.ui.nodes.find((n: any) => n.group === 'saml').attributes).toMatchObject({ name: 'link', value: 'corp' });
    expect((await identity.getIdentity({ id: hedy.id, includeCredential: ['saml'] })).data.credentials?.saml).toBeUndefined();
    const again = await hedy.b.go(`${app.base}/self-service/settings?flow=${after.id}`, { json: { method: 'saml', unlink: 'corp', csrf_token: csrf(after) } });
    expect(again.status).toBe(400);
    expect(((await again.json()) as any).error.reason).toBe('Unable to unlink SAML connection because it does not exist.');
  });
});

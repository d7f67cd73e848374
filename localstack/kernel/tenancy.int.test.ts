import { randomBytes } from 'node:crypto';
import { Configuration, FrontendApi, IdentityApi } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, newUser } from '../test-support/control-plane';
import type { LocalStack } from '../index';
import { anyStatus, csrfOf, latestCode, startTestStack } from '../test-support/self-service';
import { deleteTenantData } from '../project/tenant-data';
import { CookieJar } from '../../server/test-support/users';

let stack: LocalStack;
let a: { slug: string; id: string; base: string };
let b: { slug: string; id: string; base: string };

beforeAll(async () => {
  stack = await startTestStack();
  const owner = await newUser(stack, 'Owner');
  const pa = await createProject(owner, 'Tenant A');
  const pb = await createProject(owner, 'Tenant B');
  a = { slug: pa.slug, id: pa.id, base: `${stack.url}/project-api/${pa.slug}` };
  b = { slug: pb.slug, id: pb.id, base: `${stack.url}/project-api/${pb.slug}` };
});
afterAll(async () => {
  await stack?.close();
});

/** The project API's client as an app would configure it: @ory/client with basePath set to the project's URL. */
const frontend = (basePath: string) => new FrontendApi(new Configuration({ basePath }));

const PASSWORD = 'a-Long-and-unusual-passw0rd';
const freshEmail = () => `same-${randomBytes(4).toString('hex')}@example.com`;

/** Registers `email` through the browser flow of the tenant at `base`; returns the Set-Cookie lines and the identity. */
async function register(base: string, email: string) {
  const api = frontend(base);
  const jar = new CookieJar();
  const flow = await api.createBrowserRegistrationFlow();
  jar.store(flow.headers['set-cookie']);
  const res = await api.updateRegistrationFlow({
    flow: flow.data.id,
    cookie: jar.header(),
    updateRegistrationFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), password: PASSWORD, traits: { email, name: 'Same' } },
  });
  jar.store(res.headers['set-cookie']);
  return { flow: flow.data, identityId: res.data.identity.id, setCookie: (res.headers['set-cookie'] ?? []) as string[], jar };
}

/** Signs in through the tenant's API login flow (native apps) and returns the session token. */
async function apiLogin(base: string, email: string): Promise<string> {
  const api = frontend(base);
  const flow = await api.createNativeLoginFlow();
  const res = await api.updateLoginFlow({
    flow: flow.data.id,
    updateLoginFlowBody: { method: 'password', identifier: email, password: PASSWORD },
  });
  expect(res.data.session_token).toBeTruthy();
  return res.data.session_token!;
}

const whoamiStatus = async (base: string, token: string) =>
  (await frontend(base).toSession({ xSessionToken: token }, anyStatus)).status;

describe('every project has its own identity service under /project-api/{slug}', () => {
  it('registers the same email in two projects and the console; each session is valid in its own tenant only', async () => {
    const email = freshEmail();
    const inA = await register(a.base, email);
    const inB = await register(b.base, email);
    const inConsole = await register(stack.url, email);
    expect(new Set([inA.identityId, inB.identityId, inConsole.identityId]).size).toBe(3);

    // Project tenants' session cookie is Ory Network's, kept to the project's base path.
    const cookieA = inA.setCookie.find((c) => c.startsWith(`ory_session_${a.slug.replaceAll('-', '')}=`));
    expect(cookieA).toMatch(new RegExp(`; Path=/project-api/${a.slug}(;|$)`));
    expect(inA.setCookie.some((c) => c.startsWith('ory_kratos_session='))).toBe(false);
    expect(inConsole.setCookie.find((c) => c.startsWith('ory_kratos_session='))).toMatch(/; Path=\/(;|$)/);

    // The browser session works on its own tenant's whoami, with its identity and tenant-local URLs.
    const who = await frontend(a.base).toSession({ cookie: inA.jar.header() });
    expect(who.data.identity?.id).toBe(inA.identityId);
    expect(who.data.identity?.schema_url).toMatch(new RegExp(`^${a.base}/schemas/`));
    expect(inA.flow.ui.action).toBe(`${a.base}/self-service/registration?flow=${inA.flow.id}`);

    const tokenA = await apiLogin(a.base, email);
    const tokenB = await apiLogin(b.base, email);
    const tokenConsole = await apiLogin(stack.url, email);
    expect(await whoamiStatus(a.base, tokenA)).toBe(200);
    expect(await whoamiStatus(b.base, tokenA)).toBe(401);
    expect(await whoamiStatus(stack.url, tokenA)).toBe(401);
    expect(await whoamiStatus(b.base, tokenB)).toBe(200);
    expect(await whoamiStatus(a.base, tokenB)).toBe(401);
    expect(await whoamiStatus(stack.url, tokenConsole)).toBe(200);
    expect(await whoamiStatus(a.base, tokenConsole)).toBe(401);
    // A bearer token is the same session token: refused by another tenant too.
    const bearer = (base: string, token: string) =>
      fetch(`${base}/sessions/whoami`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);
    expect(await bearer(a.base, tokenA)).toBe(200);
    expect(await bearer(b.base, tokenA)).toBe(401);
    // The console's control plane does not accept a project tenant's session either.
    const projects = await fetch(`${stack.url}/projects`, { headers: { 'x-session-token': tokenA, accept: 'application/json' } });
    expect(projects.status).toBe(401);
  });

  it("does not show one tenant's flow to another (404), and signs in only with the tenant's own password", async () => {
    const email = freshEmail();
    await register(a.base, email);
    const flowA = await frontend(a.base).createNativeLoginFlow();
    const onB = await frontend(b.base).getLoginFlow({ id: flowA.data.id }, anyStatus);
    expect(onB.status).toBe(404);
    const submitOnB = await frontend(b.base).updateLoginFlow(
      { flow: flowA.data.id, updateLoginFlowBody: { method: 'password', identifier: email, password: PASSWORD } },
      anyStatus,
    );
    expect(submitOnB.status).toBe(404);
    const onConsole = await frontend(stack.url).getLoginFlow({ id: flowA.data.id }, anyStatus);
    expect(onConsole.status).toBe(404);
    // The identity exists in A only: B has no such credentials.
    const flowB = await frontend(b.base).createNativeLoginFlow();
    const wrongTenant = await frontend(b.base).updateLoginFlow(
      { flow: flowB.data.id, updateLoginFlowBody: { method: 'password', identifier: email, password: PASSWORD } },
      anyStatus,
    );
    expect(wrongTenant.status).toBe(400);
    expect((wrongTenant.data as unknown as { ui: { messages: { id: number }[] } }).ui.messages[0]?.id).toBe(4000006);
  });

  it('mails recovery codes per tenant, and a code redeems only in the flow of its tenant', async () => {
    const email = freshEmail();
    await register(a.base, email);
    await register(b.base, email);
    const api = frontend(a.base);
    const jar = new CookieJar();
    const flow = await api.createBrowserRecoveryFlow();
    jar.store(flow.headers['set-cookie']);
    const csrf_token = csrfOf(flow.data);
    await api.updateRecoveryFlow({ flow: flow.data.id, cookie: jar.header(), updateRecoveryFlowBody: { method: 'code', email, csrf_token } });

    const mailbox = async (project: string) => {
      const res = await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(email)}&project=${project}`);
      return (await res.json()) as { template_type: string; project_slug: string | null; nid: string }[];
    };
    const ofA = await mailbox(a.slug);
    expect(ofA.map((m) => m.template_type)).toContain('recovery_code_valid');
    expect(ofA.every((m) => m.project_slug === a.slug && m.nid === a.id)).toBe(true);
    expect((await mailbox(b.slug)).map((m) => m.template_type)).not.toContain('recovery_code_valid');

    const { code } = await latestCode(stack.url, email, a.slug);
    const redeemed = await api.updateRecoveryFlow(
      { flow: flow.data.id, cookie: jar.header(), updateRecoveryFlowBody: { method: 'code', code, csrf_token } },
      anyStatus,
    );
    // Recovered: the browser must continue to the project's settings UI, signed in to A only.
    expect(redeemed.status).toBe(422);
    const to = (redeemed.data as unknown as { redirect_browser_to: string }).redirect_browser_to;
    expect(to.startsWith(`${a.base}/ui/settings?flow=`)).toBe(true);
    jar.store(redeemed.headers['set-cookie']);
    expect((await api.toSession({ cookie: jar.header() }, anyStatus)).status).toBe(200);
    expect((await frontend(b.base).toSession({ cookie: jar.header() }, anyStatus)).status).toBe(401);
  });

  it("sends a project's browser flows to the project's hosted UI location", async () => {
    const res = await fetch(`${a.base}/self-service/login/browser`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(new RegExp(`^${a.base}/ui/login\\?flow=[0-9a-f-]{36}$`));
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`Path=/project-api/${a.slug}(;|,|$)`));
  });

  it('answers an unknown project slug with Ory’s 404 body', async () => {
    const res = await fetch(`${stack.url}/project-api/no-such-project/sessions/whoami`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: number; reason: string } };
    expect(body.error.code).toBe(404);
    expect(body.error.reason).toMatch(/no-such-project/);
    const schemas = await new IdentityApi(new Configuration({ basePath: a.base })).listIdentitySchemas();
    expect(schemas.data.map((s) => s.id)).toEqual(['default']);
  });

  it("deletes a tenant's data without touching the others", async () => {
    const email = freshEmail();
    await register(a.base, email);
    await register(b.base, email);
    const tokenA = await apiLogin(a.base, email);
    const tokenB = await apiLogin(b.base, email);
    await stack.db.tx((q) => deleteTenantData(q, a.id));
    expect(await whoamiStatus(a.base, tokenA)).toBe(401);
    expect(await whoamiStatus(b.base, tokenB)).toBe(200);
    const flow = await frontend(a.base).createNativeLoginFlow();
    const login = await frontend(a.base).updateLoginFlow(
      { flow: flow.data.id, updateLoginFlowBody: { method: 'password', identifier: email, password: PASSWORD } },
      anyStatus,
    );
    expect(login.status).toBe(400);
  });

  it("purging a project through the control plane takes its tenant's identities and sessions with it", async () => {
    const owner = await newUser(stack, 'Purger');
    const doomed = await createProject(owner, 'Doomed tenant');
    const base = `${stack.url}/project-api/${doomed.slug}`;
    const email = freshEmail();
    await register(base, email);
    const token = await apiLogin(base, email);
    expect(await whoamiStatus(base, token)).toBe(200);

    expect((await owner.call('DELETE', `/projects/${doomed.id}`)).status).toBe(204);
    // The slug no longer resolves, and the session is gone from the store, not merely unreachable.
    expect((await fetch(`${base}/sessions/whoami`, { headers: { 'x-session-token': token } })).status).toBe(404);
    const left = await stack.db.query<{ n: number }>('SELECT count(*)::int AS n FROM identities WHERE nid = $1', [doomed.id]);
    expect(left[0]?.n).toBe(0);
    expect(await whoamiStatus(a.base, token)).toBe(401);
  });

  it("runs every API flow (native apps) in a project's tenant: registration, settings, verification, recovery", async () => {
    const email = freshEmail();
    const api = frontend(a.base);
    const reg = await api.createNativeRegistrationFlow();
    expect(reg.data.ui.action).toBe(`${a.base}/self-service/registration?flow=${reg.data.id}`);
    expect(reg.data.ui.nodes.some((n) => (n.attributes as { name?: string }).name === 'csrf_token')).toBe(false);
    const registered = await api.updateRegistrationFlow({
      flow: reg.data.id,
      updateRegistrationFlowBody: { method: 'password', password: PASSWORD, traits: { email, name: 'Native' } },
    });
    const token = registered.data.session_token!;
    expect(registered.headers['set-cookie']).toBeUndefined();
    expect(registered.data.continue_with?.[0]).toEqual({ action: 'set_ory_session_token', ory_session_token: token });
    expect(await whoamiStatus(a.base, token)).toBe(200);
    expect(await whoamiStatus(b.base, token)).toBe(401);

    const settings = await api.createNativeSettingsFlow({ xSessionToken: token });
    const saved = await api.updateSettingsFlow({
      flow: settings.data.id,
      xSessionToken: token,
      updateSettingsFlowBody: { method: 'profile', traits: { email, name: 'Renamed' } },
    });
    expect(saved.data.state).toBe('success');
    expect((await api.toSession({ xSessionToken: token })).data.identity?.traits.name).toBe('Renamed');
    // Without its session the settings flow cannot be started; another tenant's session is none.
    expect((await frontend(b.base).createNativeSettingsFlow({ xSessionToken: token }, anyStatus)).status).toBe(401);

    const verification = await api.createNativeVerificationFlow();
    await api.updateVerificationFlow({ flow: verification.data.id, updateVerificationFlowBody: { method: 'code', email } });
    const verifyCode = (await latestCode(stack.url, email, a.slug)).code;
    const verified = await api.updateVerificationFlow({
      flow: verification.data.id,
      updateVerificationFlowBody: { method: 'code', code: verifyCode },
    });
    expect(verified.data.state).toBe('passed_challenge');
    expect((await api.toSession({ xSessionToken: token })).data.identity?.verifiable_addresses?.[0]?.verified).toBe(true);

    const recovery = await api.createNativeRecoveryFlow();
    await api.updateRecoveryFlow({ flow: recovery.data.id, updateRecoveryFlowBody: { method: 'code', email } });
    const { message, code } = await latestCode(stack.url, email, a.slug);
    expect(message.template_type).toBe('recovery_code_valid');
    const recovered = await api.updateRecoveryFlow({ flow: recovery.data.id, updateRecoveryFlowBody: { method: 'code', code } });
    expect(recovered.data.state).toBe('passed_challenge');
    const [setToken, showSettings] = recovered.data.continue_with ?? [];
    expect(setToken?.action).toBe('set_ory_session_token');
    const recoveredToken = (setToken as { ory_session_token: string }).ory_session_token;
    expect(await whoamiStatus(a.base, recoveredToken)).toBe(200);
    expect(await whoamiStatus(stack.url, recoveredToken)).toBe(401);
    const settingsId = (showSettings as { flow: { id: string } }).flow.id;
    const next = await api.getSettingsFlow({ id: settingsId, xSessionToken: recoveredToken });
    expect(next.data.type).toBe('api');
    // The token was in that answer only: reading the recovery flow again does not reveal it.
    const again = await api.getRecoveryFlow({ id: recovery.data.id });
    expect(JSON.stringify(again.data)).not.toContain(recoveredToken);
  });
});

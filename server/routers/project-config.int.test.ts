import type { UiNode } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUOTA_FEATURES } from '../../shared/domain/quota';
import { DOCUMENTS_AND_FOLDERS } from '../../shared/permissions/templates';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { CookieJar, frontendApi, registerUser, signUpToProject } from '../test-support/users';

/*
 * The identity settings of a project through `projectConfig`, each shown by what the project's own flows
 * then do (on a real local stack, over HTTP): methods, registration, password rules, recovery, verification,
 * session lifespan, allowed return URLs and the UI's URLs.
 */

let stack: TestStack;
let deps: AppDeps;
type Caller = ReturnType<typeof callerFor>;
let owner: Caller;
let stranger: Caller;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [a, b] = await Promise.all([registerUser(stack.url, { name: 'Config Owner' }), registerUser(stack.url, { name: 'Config Stranger' })]);
  owner = callerFor(deps, a.cookie);
  stranger = callerFor(deps, b.cookie);
});
afterAll(async () => {
  await stack?.close();
});

const PASSWORD = 'a-Long-and-unusual-passw0rd';

async function newProject(name: string) {
  const project = await owner.projects.create({ name, environment: 'dev' });
  const base = `${stack.url}/project-api/${project.slug}`;
  return { projectId: project.id, slug: project.slug, base, api: frontendApi(base) };
}

const anyStatus = { validateStatus: () => true };
const nodeMessages = (data: unknown, name: string) =>
  (((data as { ui?: { nodes: UiNode[] } }).ui?.nodes ?? []) as UiNode[]).find((n) => (n.attributes as { name?: string }).name === name)?.messages.map((m) => m.id) ?? [];
const errorOf = (data: unknown) => (data as { error: { id?: string; reason?: string } }).error;

/** A native registration with `password`: its status and the ids of the password node's messages. */
async function register(api: ReturnType<typeof frontendApi>, email: string, password: string) {
  const flow = await api.createNativeRegistrationFlow();
  const res = await api.updateRegistrationFlow({ flow: flow.data.id, updateRegistrationFlowBody: { method: 'password', password, traits: { email, name: 'N' } } }, anyStatus);
  return { status: res.status, messages: nodeMessages(res.data, 'password') };
}

async function mailbox(to: string, slug: string): Promise<{ subject: string; body: string; template_type: string }[]> {
  const res = await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(to)}&project=${slug}`);
  return (await res.json()) as { subject: string; body: string; template_type: string }[];
}

describe('sign-in methods and the password policy', () => {
  it('reads Ory Network’s defaults, writes a JSON patch that keeps other settings, and refuses a stale revision', async () => {
    const { projectId } = await newProject('Defaults');
    const read = await owner.projectConfig.get({ projectId });
    expect(read.authentication).toMatchObject({ password_enabled: true, code_enabled: true, registration_enabled: true, min_password_length: 8, totp_enabled: false });
    expect(read.recovery).toEqual({ enabled: true, use: 'code', lifespan: '', notify_unknown_recipients: false });
    expect(read.sessions).toMatchObject({ lifespan: '', cookie_same_site: 'Lax', whoami_required_aal: 'highest_available' });

    await owner.projects.patch({ projectId, patch: [{ op: 'add', path: '/services/identity/config/selfservice', value: { methods: { oidc: { enabled: true } } } }] });
    const saved = await owner.projectConfig.setAuthentication({ projectId, revisionId: (await owner.projectConfig.get({ projectId })).revisionId, min_password_length: 12 });
    expect(saved.authentication.min_password_length).toBe(12);
    const config = (await owner.projects.configuration({ projectId })).services.identity as { config: { selfservice: { methods: Record<string, unknown> } } };
    expect(config.config.selfservice.methods).toMatchObject({ oidc: { enabled: true }, password: { config: { min_password_length: 12 } } });

    const stale = await rejection(owner.projectConfig.setAuthentication({ projectId, revisionId: read.revisionId, min_password_length: 9 }));
    expect(stale.code).toBe('CONFLICT');
    expect((await owner.projectConfig.get({ projectId })).authentication.min_password_length).toBe(12);

    const tooShort = await rejection(owner.projectConfig.setAuthentication({ projectId, min_password_length: 4 }));
    expect(tooShort.code).toBe('BAD_REQUEST');
    expect(tooShort.message).toMatch(/at least 6 characters/);
  });

  it('a 12-character minimum refuses 11 characters; the identifier-similarity check can be turned off', async () => {
    const { projectId, api } = await newProject('Policy');
    await owner.projectConfig.setAuthentication({ projectId, min_password_length: 12 });
    expect(await register(api, 'short@example.com', 'Zq9-xw7-Lp4')).toEqual({ status: 400, messages: [4000032] });
    expect((await register(api, 'long@example.com', 'Zq9-xw7-Lp4-')).status).toBe(200);

    const similar = 'similar-person@example.com';
    expect(await register(api, similar, `${similar}1`)).toEqual({ status: 400, messages: [4000031] });
    await owner.projectConfig.setAuthentication({ projectId, identifier_similarity_check_enabled: false });
    expect((await register(api, similar, `${similar}1`)).status).toBe(200);
  });

  it('turning registration off refuses the flow with Kratos’ error; turning password off removes it from login', async () => {
    const { projectId, slug, api } = await newProject('Methods');
    await signUpToProject(stack.url, slug, 'member@example.com');
    await owner.projectConfig.setAuthentication({ projectId, registration_enabled: false, password_enabled: false });

    const refused = await api.createNativeRegistrationFlow(undefined, anyStatus);
    expect(refused.status).toBe(400);
    expect(errorOf(refused.data)).toMatchObject({ id: 'self_service_flow_disabled', reason: 'Registration is not allowed because it was disabled.' });

    const login = await api.createNativeLoginFlow();
    expect(login.data.ui.nodes.some((n) => n.group === 'password')).toBe(false);
    const submit = await api.updateLoginFlow({ flow: login.data.id, updateLoginFlowBody: { method: 'password', identifier: 'member@example.com', password: PASSWORD } }, anyStatus);
    expect(submit.status).toBe(400);
    expect((submit.data as unknown as { ui: { messages: { id: number }[] } }).ui.messages.map((m) => m.id)).toEqual([4010002]);

    await owner.projectConfig.setAuthentication({ projectId, password_enabled: true });
    const again = await api.createNativeLoginFlow();
    expect((await api.updateLoginFlow({ flow: again.data.id, updateLoginFlowBody: { method: 'password', identifier: 'member@example.com', password: PASSWORD } })).status).toBe(200);
  });
});

describe('recovery, verification and sessions', () => {
  it('recovery off refuses the flow; recovery by link mails a link that signs in; the lifespan sets the flow’s', async () => {
    const { projectId, slug, base, api } = await newProject('Recovery');
    await signUpToProject(stack.url, slug, 'lost@example.com');
    await owner.projectConfig.setRecovery({ projectId, enabled: false });
    const off = await api.createNativeRecoveryFlow(anyStatus);
    expect(off.status).toBe(400);
    expect(errorOf(off.data).reason).toBe('Recovery is not allowed because it was disabled.');

    await owner.projectConfig.setRecovery({ projectId, enabled: true, use: 'link', lifespan: '15m' });
    const jar = new CookieJar();
    const created = await fetch(`${base}/self-service/recovery/browser`, { headers: { accept: 'application/json' } });
    jar.store(created.headers.getSetCookie());
    const flow = (await created.json()) as { id: string; issued_at: string; expires_at: string; ui: { nodes: UiNode[] } };
    expect(new Date(flow.expires_at).getTime() - new Date(flow.issued_at).getTime()).toBe(15 * 60_000);
    expect(flow.ui.nodes.find((n) => (n.attributes as { name?: string }).name === 'method')).toMatchObject({ group: 'link', attributes: { value: 'link' } });
    const csrf = (flow.ui.nodes.find((n) => (n.attributes as { name?: string }).name === 'csrf_token')!.attributes as { value: string }).value;
    const sent = await fetch(`${base}/self-service/recovery?flow=${flow.id}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', cookie: jar.header() },
      body: JSON.stringify({ method: 'link', email: 'lost@example.com', csrf_token: csrf }),
    });
    expect(sent.status).toBe(200);
    expect(((await sent.json()) as { ui: { messages: { id: number }[] } }).ui.messages.map((m) => m.id)).toEqual([1060002]);
    const [mail] = await mailbox('lost@example.com', slug);
    expect(mail!.template_type).toBe('recovery_valid');
    const link = /(http\S+\/self-service\/recovery\?flow=\S+&token=[\w-]+)/.exec(mail!.body)?.[1];
    expect(link).toBeTruthy();
    const opened = await fetch(link!, { redirect: 'manual', headers: { cookie: jar.header() } });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toMatch(/\/settings\?flow=/);
  });

  it('verification off refuses the flow; a verification lifespan sets the flow’s; the session lifespan sets the session’s', async () => {
    const { projectId, slug, api } = await newProject('Lifespans');
    await owner.projectConfig.setVerification({ projectId, enabled: false });
    const off = await api.createNativeVerificationFlow({}, anyStatus);
    expect(off.status).toBe(400);
    expect(errorOf(off.data).reason).toBe('Verification is not allowed because it was disabled.');
    await owner.projectConfig.setVerification({ projectId, enabled: true, lifespan: '2h' });
    const flow = await api.createNativeVerificationFlow();
    expect(new Date(flow.data.expires_at ?? 0).getTime() - new Date(flow.data.issued_at ?? 0).getTime()).toBe(2 * 60 * 60_000);

    await owner.projectConfig.setSessions({ projectId, lifespan: '2h' });
    const { token } = await signUpToProject(stack.url, slug, 'brief@example.com');
    const session = await api.toSession({ xSessionToken: token });
    expect(new Date(session.data.expires_at ?? 0).getTime() - new Date(session.data.issued_at ?? 0).getTime()).toBe(2 * 60 * 60_000);
    expect((await owner.projectConfig.setSessions({ projectId, lifespan: '' })).sessions.lifespan).toBe('');
  });
});

describe('browser redirects and the UI’s URLs', () => {
  it('lets a flow return to an allowed URL and refuses one outside the list with Kratos’ error', async () => {
    const { projectId, base } = await newProject('Redirects');
    const invalid = await rejection(owner.projectConfig.setBrowserRedirects({ projectId, allowed_return_urls: ['https://localhost/'] }));
    expect(invalid.code).toBe('BAD_REQUEST');
    expect(invalid.message).toMatch(/must contain a dot/);
    await owner.projectConfig.setBrowserRedirects({ projectId, allowed_return_urls: ['https://app.example.com/welcome', 'https://*.example.org'] });

    const start = (returnTo: string) => fetch(`${base}/self-service/login/browser?return_to=${encodeURIComponent(returnTo)}`, { headers: { accept: 'application/json' } });
    for (const allowed of ['https://app.example.com/welcome/back', 'https://eu.example.org/x']) {
      const res = await start(allowed);
      expect(res.status, allowed).toBe(200);
      expect(((await res.json()) as { return_to: string }).return_to).toBe(allowed);
    }
    for (const outside of ['https://evil.example.com/', 'https://app.example.com/elsewhere', 'http://eu.example.org/x']) {
      const res = await start(outside);
      expect(res.status, outside).toBe(400);
      expect(errorOf(await res.json())).toMatchObject({ id: 'self_service_flow_return_to_forbidden', reason: `Requested return_to URL "${outside}" is not allowed.` });
    }
  });

  it('sends browsers to the project’s own login and registration pages once they are set', async () => {
    const { projectId, base } = await newProject('Own UI');
    await owner.projectConfig.setUi({ projectId, login: 'https://auth.example.com/sign-in', registration: 'https://auth.example.com/sign-up' });
    const login = await fetch(`${base}/self-service/login/browser`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(login.status).toBe(303);
    expect(login.headers.get('location')).toMatch(/^https:\/\/auth\.example\.com\/sign-in\?flow=[0-9a-f-]{36}$/);
    const registration = await fetch(`${base}/self-service/registration/browser`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(registration.headers.get('location')).toMatch(/^https:\/\/auth\.example\.com\/sign-up\?flow=/);

    expect((await owner.projectConfig.setUi({ projectId, login: '' })).ui.login).toBe('');
    const back = await fetch(`${base}/self-service/login/browser`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(back.headers.get('location')).toContain(`${base}/ui/login?flow=`);
  });
});

describe('limits and who may see the settings', () => {
  it('counts what is used: projects by environment, themes, today’s active users, and this month’s permission checks', async () => {
    const { projectId, slug } = await newProject('Limits used');
    const usedOf = async (feature: string) => (await owner.quota.all({ projectId })).find((q) => q.feature === feature)?.used;
    expect(await usedOf('development_projects')).toBe(1);
    expect(await usedOf('staging_projects')).toBe(0);
    expect(await usedOf('daily_active_users')).toBe(0);
    expect(await usedOf('permission_checks')).toBe(0);

    await signUpToProject(stack.url, slug, 'limits-user@example.com');
    expect(await usedOf('daily_active_users')).toBe(1);
    await owner.permissionRules.set({ projectId, opl: DOCUMENTS_AND_FOLDERS });
    for (let i = 0; i < 3; i++) await owner.permissions.check({ projectId, namespace: 'File', object: `doc-${i}`, relation: 'view', subject: { id: 'reader' } });
    // Checks are metered in batches a moment later: wait for the count, not for a time.
    await expect.poll(() => usedOf('permission_checks'), { timeout: 60_000 }).toBe(3);
    await owner.projects.setEnvironment({ projectId, environment: 'stage' });
    expect(await usedOf('staging_projects')).toBe(1);
    expect(await usedOf('development_projects')).toBe(0);
  });

  it('answers every quota feature of the plan, and refuses a stranger the settings and the limits', async () => {
    const { projectId } = await newProject('Limits');
    const all = await owner.quota.all({ projectId });
    expect(all.map((q) => q.feature)).toEqual([...QUOTA_FEATURES]);

    // One call at a time: a call started early and refused while the one before is still awaited would be a
    // rejection nobody handles yet.
    for (const attempt of [
      () => stranger.projectConfig.get({ projectId }),
      () => stranger.projectConfig.setSessions({ projectId, lifespan: '1h' }),
      () => stranger.projectConfig.setBrowserRedirects({ projectId, allowed_return_urls: ['https://evil.example.com'] }),
      () => stranger.quota.all({ projectId }),
    ]) {
      expect(['FORBIDDEN', 'NOT_FOUND']).toContain((await rejection(attempt())).code);
    }
    expect((await owner.projectConfig.get({ projectId })).browserRedirects.allowed_return_urls).toEqual([]);
  });
});

import type { UiNode } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { anyStatus, browserOf, csrfOf, type MailboxMessage } from '../test-support/project-flows';
import { CookieJar, frontendApi, registerUser, signInToProject, signUpToProject } from '../test-support/users';

/*
 * The settings of `projectConfig` that no other file shows at work, each shown by what the project's own
 * flows then do on a real local stack over HTTP: the code and profile methods, the breached-password check,
 * passwordless security keys, the settings flow's required AAL, telling unknown addresses, and the pages of
 * the project's own UI for recovery, verification, settings and errors.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Effects Owner' })).cookie);
});
afterAll(async () => {
  await stack?.close();
});

const PASSWORD = 'a-Long-and-unusual-passw0rd';
type Flow = { id: string; state?: string; ui: { nodes: UiNode[]; messages?: { id: number; text: string }[] } };
const messageIds = (data: unknown) => ((data as Flow).ui.messages ?? []).map((m) => m.id);
const nodeMessages = (data: unknown, name: string) => ((data as Flow).ui.nodes.find((n) => (n.attributes as { name?: string }).name === name)?.messages ?? []).map((m) => m.id);

async function newProject(name: string) {
  const project = await owner.projects.create({ name, environment: 'dev' });
  const base = `${stack.url}/project-api/${project.slug}`;
  return { projectId: project.id, slug: project.slug, base, api: frontendApi(base) };
}

async function mailbox(to: string, slug: string): Promise<MailboxMessage[]> {
  const res = await fetch(`${stack.url}/local/mailbox/messages?${new URLSearchParams({ to, project: slug })}`);
  return (await res.json()) as MailboxMessage[];
}

/** Where a browser (HTML, no cookie) is sent when it opens `path` of the project's API. */
async function landing(base: string, path: string): Promise<string> {
  const res = await fetch(`${base}${path}`, { redirect: 'manual', headers: { accept: 'text/html' } });
  expect(res.status, path).toBe(303);
  return res.headers.get('location') ?? '';
}

describe('sign-in methods and the password policy (/authentication)', () => {
  it('the breached-password check refuses a known leaked password until it is turned off', async () => {
    const { projectId, api } = await newProject('Breached');
    const register = async (email: string) => {
      const flow = await api.createNativeRegistrationFlow();
      return api.updateRegistrationFlow({ flow: flow.data.id, updateRegistrationFlowBody: { method: 'password', password: 'password', traits: { email, name: 'N' } } }, anyStatus);
    };
    // Ory Network's minimum of 8 is met by the leaked password; only the breach check stands in its way.
    const refused = await register('leaked@example.com');
    expect(refused.status).toBe(400);
    expect(nodeMessages(refused.data, 'password')).toEqual([4000034]);

    expect((await owner.projectConfig.setAuthentication({ projectId, haveibeenpwned_enabled: false })).authentication.haveibeenpwned_enabled).toBe(false);
    const accepted = await register('leaked@example.com');
    expect(accepted.status).toBe(200);
  });

  it('profile off refuses a profile change in settings; on again, the change is saved', async () => {
    const { projectId, slug, api } = await newProject('Profile');
    const user = await signUpToProject(stack.url, slug, 'profile@example.com');
    const change = async () => {
      const flow = await api.createNativeSettingsFlow({ xSessionToken: user.token });
      return api.updateSettingsFlow(
        { flow: flow.data.id, xSessionToken: user.token, updateSettingsFlowBody: { method: 'profile', traits: { email: 'profile@example.com', name: 'Renamed' } } },
        anyStatus,
      );
    };
    await owner.projectConfig.setAuthentication({ projectId, profile_enabled: false });
    const refused = await change();
    expect(refused.status).toBe(400);
    expect(messageIds(refused.data)).toEqual([4010004]);
    expect((await api.toSession({ xSessionToken: user.token })).data.identity?.traits).toMatchObject({ name: 'profile' });

    await owner.projectConfig.setAuthentication({ projectId, profile_enabled: true });
    expect((await change()).status).toBe(200);
    expect((await api.toSession({ xSessionToken: user.token })).data.identity?.traits).toMatchObject({ name: 'Renamed' });
  });

  it('the code method off takes one-time codes out as a second factor: whoami no longer asks for aal2', async () => {
    const { projectId, slug, api } = await newProject('Code method');
    const email = 'code-method@example.com';
    await signUpToProject(stack.url, slug, email);
    await owner.projectConfig.setMfa({ projectId, code_mfa_enabled: true });
    const asked = await signInToProject(stack.url, slug, email);
    expect((await api.toSession({ xSessionToken: asked.token }, anyStatus)).status).toBe(403);

    expect((await owner.projectConfig.setAuthentication({ projectId, code_enabled: false })).authentication.code_enabled).toBe(false);
    const signedIn = await signInToProject(stack.url, slug, email);
    const who = await api.toSession({ xSessionToken: signedIn.token });
    expect(who.data.authenticator_assurance_level).toBe('aal1');
  });
});

describe('second factors (/passwordless, /mfa)', () => {
  it('security keys set to sign in without a password are no longer offered as a second factor in settings', async () => {
    const { projectId, base } = await newProject('Passwordless keys');
    const b = browserOf(base);
    const flow = b.keep(await b.api.createBrowserRegistrationFlow());
    b.keep(
      await b.api.updateRegistrationFlow({
        flow: flow.data.id,
        cookie: b.cookie(),
        updateRegistrationFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), password: PASSWORD, traits: { email: 'keys@example.com', name: 'Keys' } },
      }),
    );
    const webauthnNodes = async () => {
      const settings = b.keep(await b.api.createBrowserSettingsFlow({ cookie: b.cookie() })).data as unknown as Flow;
      return settings.ui.nodes.filter((n) => n.group === 'webauthn').length;
    };
    await owner.projectConfig.setMfa({ projectId, webauthn_enabled: true });
    expect(await webauthnNodes()).toBeGreaterThan(0);
    expect((await owner.projectConfig.setPasswordless({ projectId, webauthn_passwordless: true })).passwordless.webauthn_passwordless).toBe(true);
    expect(await webauthnNodes()).toBe(0);
  });

  it('settings_required_aal aal1 lets an aal1 session of an identity with a second factor open settings', async () => {
    const { projectId, slug, api } = await newProject('Settings AAL');
    const email = 'settings-aal@example.com';
    await signUpToProject(stack.url, slug, email);
    // A second factor the identity has without enrolling: one-time codes to its address.
    await owner.projectConfig.setMfa({ projectId, code_mfa_enabled: true, whoami_required_aal: 'aal1' });
    const signedIn = await signInToProject(stack.url, slug, email);
    const refused = await api.createNativeSettingsFlow({ xSessionToken: signedIn.token }, anyStatus);
    expect(refused.status).toBe(403);
    expect((refused.data as unknown as { error: { id: string } }).error.id).toBe('session_aal2_required');

    await owner.projectConfig.setMfa({ projectId, settings_required_aal: 'aal1' });
    expect((await api.createNativeSettingsFlow({ xSessionToken: signedIn.token }, anyStatus)).status).toBe(200);
  });
});

describe('recovery and verification (/authentication/recovery, /authentication/verification)', () => {
  it('notify_unknown_recipients mails an unknown address the invalid variant, for recovery and verification alike', async () => {
    const { projectId, slug, api } = await newProject('Unknown recipients');
    const recover = async (email: string) => {
      const flow = await api.createNativeRecoveryFlow();
      expect((await api.updateRecoveryFlow({ flow: flow.data.id, updateRecoveryFlowBody: { method: 'code', email } }, anyStatus)).status).toBe(200);
    };
    const verify = async (email: string) => {
      const flow = await api.createNativeVerificationFlow();
      expect((await api.updateVerificationFlow({ flow: flow.data.id, updateVerificationFlowBody: { method: 'code', email } }, anyStatus)).status).toBe(200);
    };
    await recover('nobody-recovers@example.com');
    await verify('nobody-verifies@example.com');
    expect(await mailbox('nobody-recovers@example.com', slug)).toEqual([]);
    expect(await mailbox('nobody-verifies@example.com', slug)).toEqual([]);

    await owner.projectConfig.setRecovery({ projectId, notify_unknown_recipients: true });
    await owner.projectConfig.setVerification({ projectId, notify_unknown_recipients: true });
    await recover('nobody-recovers@example.com');
    await verify('nobody-verifies@example.com');
    expect((await mailbox('nobody-recovers@example.com', slug)).map((m) => m.template_type)).toEqual(['recovery_code_invalid']);
    expect((await mailbox('nobody-verifies@example.com', slug)).map((m) => m.template_type)).toEqual(['verification_code_invalid']);
  });
});

describe('verification by link', () => {
  it('mails a link instead of a code that, opened, verifies the address; opened again or with a wrong token, it changes nothing', async () => {
    const { projectId, slug, base, api } = await newProject('Verify by link');
    const email = 'verify-link@example.com';
    const { identityId } = await signUpToProject(stack.url, slug, email);
    expect((await owner.projectConfig.setVerification({ projectId, use: 'link' })).verification.use).toBe('link');

    const jar = new CookieJar();
    const created = await fetch(`${base}/self-service/verification/browser`, { headers: { accept: 'application/json' } });
    jar.store(created.headers.getSetCookie());
    const flow = (await created.json()) as Flow;
    expect(flow.ui.nodes.find((n) => (n.attributes as { name?: string }).name === 'method')).toMatchObject({ group: 'link', attributes: { value: 'link' } });
    const sent = await fetch(`${base}/self-service/verification?flow=${flow.id}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', cookie: jar.header() },
      body: JSON.stringify({ method: 'link', email, csrf_token: csrfOf(flow) }),
    });
    expect(sent.status).toBe(200);
    expect(messageIds(await sent.json())).toEqual([1080001]);
    const mail = (await mailbox(email, slug)).find((m) => m.template_type === 'verification_valid');
    const link = /(http\S+\/self-service\/verification\?flow=\S+&token=[\w-]+)/.exec(mail?.body ?? '')?.[1];
    expect(link).toBeTruthy();

    const address = async () => (await owner.identities.get({ projectId, identityId })).verifiable_addresses?.[0]?.verified;
    expect(await address()).toBe(false);
    const opened = await fetch(link!, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toBe(`${base}/ui/verification?flow=${flow.id}`);
    expect(await address()).toBe(true);
    const passed = await api.getVerificationFlow({ id: flow.id, cookie: jar.header() });
    expect(passed.data.state).toBe('passed_challenge');
    expect(messageIds(passed.data)).toEqual([1080002]);

    const again = await fetch(link!, { redirect: 'manual' });
    expect(again.status).toBe(303);
    const wrong = await fetch(link!.replace(/token=[\w-]+/, 'token=not-the-token'), { redirect: 'manual' });
    expect(wrong.status).toBe(303);
    expect((await api.getVerificationFlow({ id: flow.id, cookie: jar.header() })).data.state).toBe('passed_challenge');
  });
});

describe('the project’s own UI (/ui)', () => {
  it('sends browsers to the project’s recovery, verification, settings and error pages once they are set', async () => {
    const { projectId, base } = await newProject('Own pages');
    const own = 'https://auth.example.com';
    await owner.projectConfig.setUi({ projectId, recovery: `${own}/recover`, verification: `${own}/verify`, settings: `${own}/account`, error: `${own}/oops` });

    expect(await landing(base, '/self-service/recovery/browser')).toMatch(/^https:\/\/auth\.example\.com\/recover\?flow=[0-9a-f-]{36}$/);
    expect(await landing(base, '/self-service/verification/browser')).toMatch(/^https:\/\/auth\.example\.com\/verify\?flow=[0-9a-f-]{36}$/);
    // Settings need a session: the browser signs in first and comes back to the project's settings page.
    const signIn = new URL(await landing(base, '/self-service/settings/browser'));
    expect(signIn.searchParams.get('return_to')).toBe(`${own}/account`);
    // A refused flow lands on the project's error page, whose id the error endpoint answers.
    const error = new URL(await landing(base, `/self-service/login/browser?return_to=${encodeURIComponent('https://evil.example.com/')}`));
    expect(`${error.origin}${error.pathname}`).toBe(`${own}/oops`);
    const stored = await fetch(`${base}/self-service/errors?id=${error.searchParams.get('id')}`, { headers: { accept: 'application/json' } });
    expect(((await stored.json()) as { error: { id: string } }).error.id).toBe('self_service_flow_return_to_forbidden');
  });

  it('a recovery link lands on the project’s settings page, and a sign-up shows its verification page', async () => {
    const { projectId, slug, base } = await newProject('Own pages after');
    const own = 'https://auth.example.com';
    await owner.projectConfig.setUi({ projectId, verification: `${own}/verify`, settings: `${own}/account` });
    await owner.projectConfig.setRecovery({ projectId, use: 'link' });

    const b = browserOf(base);
    const registration = b.keep(await b.api.createBrowserRegistrationFlow());
    const signedUp = await b.api.updateRegistrationFlow({
      flow: registration.data.id,
      cookie: b.cookie(),
      updateRegistrationFlowBody: { method: 'password', csrf_token: csrfOf(registration.data), password: PASSWORD, traits: { email: 'own-pages@example.com', name: 'Own' } },
    });
    const show = (signedUp.data.continue_with ?? []).find((c) => c.action === 'show_verification_ui') as { flow: { url?: string } } | undefined;
    expect(show?.flow.url).toMatch(/^https:\/\/auth\.example\.com\/verify\?flow=[0-9a-f-]{36}$/);

    const jar = new CookieJar();
    const created = await fetch(`${base}/self-service/recovery/browser`, { headers: { accept: 'application/json' } });
    jar.store(created.headers.getSetCookie());
    const flow = (await created.json()) as Flow;
    const sent = await fetch(`${base}/self-service/recovery?flow=${flow.id}`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', cookie: jar.header() },
      body: JSON.stringify({ method: 'link', email: 'own-pages@example.com', csrf_token: csrfOf(flow) }),
    });
    expect(sent.status).toBe(200);
    const mail = (await mailbox('own-pages@example.com', slug)).find((m) => m.template_type === 'recovery_valid');
    const link = /(http\S+\/self-service\/recovery\?flow=\S+&token=[\w-]+)/.exec(mail?.body ?? '')?.[1];
    expect(link).toBeTruthy();
    const opened = await fetch(link!, { redirect: 'manual', headers: { cookie: jar.header() } });
    expect(opened.status).toBe(303);
    expect(opened.headers.get('location')).toMatch(/^https:\/\/auth\.example\.com\/account\?flow=[0-9a-f-]{36}$/);
  });
});

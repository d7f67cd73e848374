import type { UiNode } from '@ory/client';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { frontendApi, registerUser, signInToProject, signUpToProject } from '../test-support/users';

/*
 * The second factor of a project (`projectConfig.setMfa`), shown by what its flows then do on a real local
 * stack over HTTP: the authenticator app enrolled in settings, asked for by a login with `aal=aal2`, and
 * required by whoami under `highest_available`; codes computed with otpauth as an app would.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'MFA Owner' })).cookie);
});
afterAll(async () => {
  await stack?.close();
});

const anyStatus = { validateStatus: () => true };
type Flow = { id: string; ui: { nodes: UiNode[]; messages?: { id: number; text: string }[] } };
const node = (flow: Flow, name: string) => flow.ui.nodes.find((n) => (n.attributes as { name?: string; id?: string }).name === name || (n.attributes as { id?: string }).id === name);
const groups = (flow: Flow) => flow.ui.nodes.map((n) => n.group);

async function newProject(name: string) {
  const project = await owner.projects.create({ name, environment: 'dev' });
  return { projectId: project.id, slug: project.slug, api: frontendApi(`${stack.url}/project-api/${project.slug}`) };
}

/** The code an authenticator app shows for `secret`, `periods` periods of 30 s from now. */
const codeOf = (secret: string, periods = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: Date.now() + periods * 30_000 });

describe('the authenticator app (TOTP) of a project', () => {
  it('enrols in settings, then a password sign-in is aal1, whoami asks for aal2, and the code raises the session to aal2', async () => {
    const { projectId, slug, api } = await newProject('Totp');
    const saved = await owner.projectConfig.setMfa({ projectId, totp_enabled: true, totp_issuer: 'Acme Login' });
    expect(saved.mfa).toMatchObject({ totp_enabled: true, totp_issuer: 'Acme Login', whoami_required_aal: 'highest_available' });
    const email = 'totp-user@example.com';
    const signedUp = await signUpToProject(stack.url, slug, email);

    const settings = (await api.createNativeSettingsFlow({ xSessionToken: signedUp.token })).data as unknown as Flow;
    expect(groups(settings).filter((g) => g === 'totp')).toHaveLength(4);
    const qr = node(settings, 'totp_qr')!;
    expect(qr.attributes).toMatchObject({ node_type: 'img', width: 256, height: 256 });
    expect((qr.attributes as { src: string }).src).toMatch(/^data:image\/png;base64,/);
    expect(qr.meta.label).toEqual({ id: 1050005, text: 'Authenticator app QR code', type: 'info' });
    const secretText = (node(settings, 'totp_secret_key')!.attributes as { text: { id: number; text: string; context: { secret: string } } }).text;
    expect(secretText.id).toBe(1050006);
    expect(secretText.text).toBe(secretText.context.secret);
    const secret = secretText.context.secret;
    expect(node(settings, 'totp_code')!.meta.label).toMatchObject({ id: 1070006, text: 'Verify code' });

    const wrong = await api.updateSettingsFlow(
      { flow: settings.id, xSessionToken: signedUp.token, updateSettingsFlowBody: { method: 'totp', totp_code: codeOf(secret, 10) } },
      anyStatus,
    );
    expect(wrong.status).toBe(400);
    expect(node(wrong.data as unknown as Flow, 'totp_code')!.messages).toEqual([
      { id: 4000008, text: 'The provided authentication code is invalid, please try again.', type: 'error' },
    ]);
    const enrolled = await api.updateSettingsFlow({
      flow: settings.id,
      xSessionToken: signedUp.token,
      updateSettingsFlowBody: { method: 'totp', totp_code: codeOf(secret) },
    });
    expect(enrolled.data.state).toBe('success');
    const after = enrolled.data as unknown as Flow;
    expect(node(after, 'totp_unlink')).toMatchObject({ group: 'totp', attributes: { type: 'submit', value: 'true' }, meta: { label: { id: 1050004 } } });
    expect(node(after, 'totp_qr')).toBeUndefined();

    // Signed out, then in again with the password alone: an aal1 session, which whoami refuses.
    await owner.sessions.revoke({ projectId, sessionId: signedUp.sessionId });
    expect((await api.toSession({ xSessionToken: signedUp.token }, anyStatus)).status).toBe(401);
    const signedIn = await signInToProject(stack.url, slug, email);
    const refused = await api.toSession({ xSessionToken: signedIn.token }, anyStatus);
    expect(refused.status).toBe(403);
    const error = (refused.data as unknown as { error: { id: string; reason: string; details: { redirect_browser_to: string } }; redirect_browser_to: string });
    expect(error.error).toMatchObject({
      id: 'session_aal2_required',
      reason: 'An active session was found but it does not fulfill the requested Authenticator Assurance Level. Please verify yourself with a second factor to resolve this issue.',
    });
    expect(error.redirect_browser_to).toBe(`${stack.url}/project-api/${slug}/self-service/login/browser?aal=aal2`);
    expect(error.error.details.redirect_browser_to).toBe(error.redirect_browser_to);

    // `highest_available` for settings too: the aal1 session may not open them.
    const settingsRefused = await api.createNativeSettingsFlow({ xSessionToken: signedIn.token }, anyStatus);
    expect(settingsRefused.status).toBe(403);
    expect((settingsRefused.data as unknown as { error: { id: string } }).error.id).toBe('session_aal2_required');

    const login = (await api.createNativeLoginFlow({ aal: 'aal2', xSessionToken: signedIn.token })).data as unknown as Flow & { requested_aal: string };
    expect(login.requested_aal).toBe('aal2');
    expect(login.ui.nodes.map((n) => [n.group, (n.attributes as { name?: string }).name])).toEqual([
      ['totp', 'totp_code'],
      ['totp', 'method'],
    ]);
    const badCode = await api.updateLoginFlow(
      { flow: login.id, xSessionToken: signedIn.token, updateLoginFlowBody: { method: 'totp', totp_code: codeOf(secret, -10) } },
      anyStatus,
    );
    expect(badCode.status).toBe(400);
    expect((badCode.data as unknown as Flow).ui.messages).toEqual([
      { id: 4000008, text: 'The provided authentication code is invalid, please try again.', type: 'error' },
    ]);
    const raised = await api.updateLoginFlow({ flow: login.id, xSessionToken: signedIn.token, updateLoginFlowBody: { method: 'totp', totp_code: codeOf(secret) } });
    expect(raised.data.session.id).toBe(signedIn.sessionId);
    expect(raised.data.session.authenticator_assurance_level).toBe('aal2');

    const who = await api.toSession({ xSessionToken: signedIn.token });
    expect(who.data.authenticator_assurance_level).toBe('aal2');
    expect(who.data.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ['password', 'aal1'],
      ['totp', 'aal2'],
    ]);
    expect((await owner.sessions.get({ projectId, sessionId: signedIn.sessionId })).authenticator_assurance_level).toBe('aal2');
    const unlinkFlow = (await api.createNativeSettingsFlow({ xSessionToken: signedIn.token })).data as unknown as Flow;
    expect(node(unlinkFlow, 'totp_unlink')).toBeDefined();

    // `aal1` for whoami: an aal1 session of the same identity is enough.
    await owner.projectConfig.setMfa({ projectId, whoami_required_aal: 'aal1' });
    const again = await signInToProject(stack.url, slug, email);
    expect((await api.toSession({ xSessionToken: again.token })).data.authenticator_assurance_level).toBe('aal1');
  });

  it('has no authenticator app in settings or login while TOTP is off, and no aal2 without a session', async () => {
    const { slug, api } = await newProject('No totp');
    const signedUp = await signUpToProject(stack.url, slug, 'no-totp@example.com');
    const settings = (await api.createNativeSettingsFlow({ xSessionToken: signedUp.token })).data as unknown as Flow;
    expect(groups(settings)).not.toContain('totp');
    const refused = await api.updateSettingsFlow(
      { flow: settings.id, xSessionToken: signedUp.token, updateSettingsFlowBody: { method: 'totp', totp_code: '123456' } },
      anyStatus,
    );
    expect(refused.status).toBe(400);
    expect((refused.data as unknown as Flow).ui.messages?.[0]).toMatchObject({ id: 4010004 });
    expect((await api.toSession({ xSessionToken: signedUp.token })).status).toBe(200);

    const anonymous = await api.createNativeLoginFlow({ aal: 'aal2' }, anyStatus);
    expect(anonymous.status).toBe(401);
    expect((anonymous.data as unknown as { error: { id: string; reason: string } }).error).toMatchObject({
      id: 'session_aal1_required',
      reason: 'You can not requested a higher AAL (AAL2/AAL3) without an active session.',
    });
  });
});

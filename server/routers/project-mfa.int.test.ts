import type { UiNode } from '@ory/client';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
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
    // The QR code is the key's otpauth:// URL, named by the issuer /mfa sets: what an app lists the key under.
    const keyUrl = new TOTP({ issuer: 'Acme Login', label: email, algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).toString();
    expect(keyUrl).toMatch(/^otpauth:\/\/totp\/Acme%20Login:/);
    expect((qr.attributes as { src: string }).src).toBe(await QRCode.toDataURL(keyUrl, { width: 256, margin: 1 }));
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

  it('keeps the authenticator app out of the flows while TOTP is switched off again on /mfa', async () => {
    const { projectId, slug, api } = await newProject('Totp off');
    await owner.projectConfig.setMfa({ projectId, totp_enabled: true });
    const signedUp = await signUpToProject(stack.url, slug, 'totp-off@example.com');
    const on = (await api.createNativeSettingsFlow({ xSessionToken: signedUp.token })).data as unknown as Flow;
    expect(groups(on)).toContain('totp');
    await owner.projectConfig.setMfa({ projectId, totp_enabled: false });
    const off = (await api.createNativeSettingsFlow({ xSessionToken: signedUp.token })).data as unknown as Flow;
    expect(groups(off)).not.toContain('totp');
  });
});

type CodesText = { id: number; text: string; context: { secrets: { id: number; text: string; context: Record<string, unknown> }[] } };
const codesOf = (flow: Flow) => (node(flow, 'lookup_secret_codes')?.attributes as { text: CodesText } | undefined)?.text;
const lookupNodes = (flow: Flow) =>
  flow.ui.nodes.filter((n) => n.group === 'lookup_secret').map((n) => [(n.attributes as { name?: string; id?: string }).name ?? (n.attributes as { id: string }).id, n.meta.label?.id]);

describe('backup recovery codes (lookup secrets) of a project', () => {
  it('are generated, confirmed, revealed and disabled in settings; each signs in at aal2 once', async () => {
    const { projectId, slug, api } = await newProject('Lookup');
    await owner.projectConfig.setMfa({ projectId, lookup_secret_enabled: true });
    const email = 'lookup-user@example.com';
    const signedUp = await signUpToProject(stack.url, slug, email);
    const token = signedUp.token;
    const submit = (flowId: string, body: Record<string, unknown>) =>
      api.updateSettingsFlow({ flow: flowId, xSessionToken: token, updateSettingsFlowBody: body as never }, anyStatus);

    const settings = (await api.createNativeSettingsFlow({ xSessionToken: token })).data as unknown as Flow;
    expect(lookupNodes(settings)).toEqual([['lookup_secret_regenerate', 1050008]]);
    expect(node(settings, 'lookup_secret_regenerate')!.attributes).toMatchObject({ type: 'submit', value: 'true' });
    expect(node(settings, 'lookup_secret_regenerate')!.meta.label).toEqual({ id: 1050008, text: 'Generate new backup recovery codes', type: 'info' });

    // Confirming before generating is refused; Kratos' reason says what to do.
    const early = await submit(settings.id, { method: 'lookup_secret', lookup_secret_confirm: true });
    expect(early.status).toBe(400);
    expect((early.data as unknown as { error: { reason: string } }).error.reason).toBe('You must (re-)generate recovery backup codes before you can save them.');

    const generated = await submit(settings.id, { method: 'lookup_secret', lookup_secret_regenerate: true });
    expect(generated.status).toBe(200);
    expect(generated.data.state).toBe('show_form');
    const shown = generated.data as unknown as Flow;
    expect(lookupNodes(shown)).toEqual([
      ['lookup_secret_codes', 1050010],
      ['lookup_secret_confirm', 1050011],
    ]);
    const list = codesOf(shown)!;
    expect(list.id).toBe(1050015);
    const codes = list.context.secrets.map((m) => m.text);
    expect(codes).toHaveLength(12);
    for (const c of codes) expect(c).toMatch(/^[a-z0-9]{8}$/);
    expect(new Set(codes).size).toBe(12);
    expect(list.text).toBe(codes.join(', '));
    expect(list.context.secrets[0]).toEqual({ id: 1050009, text: codes[0], type: 'info', context: { secret: codes[0] } });

    // Not yet confirmed: a login asking for aal2 has no backup code to offer.
    const unconfirmed = (await api.createNativeLoginFlow({ aal: 'aal2', xSessionToken: token })).data as unknown as Flow;
    expect(groups(unconfirmed)).not.toContain('lookup_secret');

    const confirmed = await submit(settings.id, { method: 'lookup_secret', lookup_secret_confirm: true });
    expect(confirmed.status).toBe(200);
    expect(confirmed.data.state).toBe('success');
    expect(lookupNodes(confirmed.data as unknown as Flow)).toEqual([
      ['lookup_secret_reveal', 1050007],
      ['lookup_secret_disable', 1050016],
    ]);
    // Confirming counts as a second factor of the session that confirmed (Kratos adds it to the session's methods).
    const afterConfirm = await api.toSession({ xSessionToken: token });
    expect(afterConfirm.data.authenticator_assurance_level).toBe('aal2');
    expect(afterConfirm.data.authentication_methods?.map((m) => m.method)).toEqual(['password', 'lookup_secret']);

    // A new aal1 session is refused by whoami (highest_available) and asked for a code in login.
    const signedIn = await signInToProject(stack.url, slug, email);
    const refused = await api.toSession({ xSessionToken: signedIn.token }, anyStatus);
    expect(refused.status).toBe(403);
    expect((refused.data as unknown as { error: { id: string } }).error.id).toBe('session_aal2_required');
    const login = (await api.createNativeLoginFlow({ aal: 'aal2', xSessionToken: signedIn.token })).data as unknown as Flow;
    expect(login.ui.nodes.map((n) => [n.group, (n.attributes as { name?: string }).name, (n.attributes as { value?: unknown }).value, n.meta.label?.id])).toEqual([
      ['lookup_secret', 'lookup_secret', '', 1010007],
      ['lookup_secret', 'method', 'lookup_secret', 1010010],
    ]);
    const useCode = (flowId: string, code: string, sessionToken = signedIn.token) =>
      api.updateLoginFlow({ flow: flowId, xSessionToken: sessionToken, updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: code } }, anyStatus);
    const wrong = await useCode(login.id, 'zzzzzzzz');
    expect(wrong.status).toBe(400);
    expect((wrong.data as unknown as Flow).ui.messages).toEqual([{ id: 4000016, text: 'The backup recovery code is not valid.', type: 'error' }]);
    const ok = await useCode(login.id, codes[3]!);
    expect(ok.status).toBe(200);
    expect(ok.data.session.authenticator_assurance_level).toBe('aal2');
    expect(ok.data.session.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ['password', 'aal1'],
      ['lookup_secret', 'aal2'],
    ]);
    expect((await api.toSession({ xSessionToken: signedIn.token })).data.authenticator_assurance_level).toBe('aal2');

    // The same code a second time: used up.
    const third = await signInToProject(stack.url, slug, email);
    const again = (await api.createNativeLoginFlow({ aal: 'aal2', xSessionToken: third.token })).data as unknown as Flow;
    const reused = await useCode(again.id, codes[3]!, third.token);
    expect(reused.status).toBe(400);
    expect((reused.data as unknown as Flow).ui.messages).toEqual([{ id: 4000012, text: 'This backup recovery code has already been used.', type: 'error' }]);
    expect(node(reused.data as unknown as Flow, 'lookup_secret')!.attributes).toMatchObject({ value: '' });

    // Reveal shows the used one as used, with when.
    const revealFlow = (await api.createNativeSettingsFlow({ xSessionToken: token })).data as unknown as Flow;
    const revealed = await submit(revealFlow.id, { method: 'lookup_secret', lookup_secret_reveal: true });
    expect(revealed.status).toBe(200);
    expect(lookupNodes(revealed.data as unknown as Flow)).toEqual([
      ['lookup_secret_codes', 1050010],
      ['lookup_secret_disable', 1050016],
      ['lookup_secret_regenerate', 1050008],
    ]);
    const revealedList = codesOf(revealed.data as unknown as Flow)!;
    expect(revealedList.text.split(', ')).toEqual(codes.map((c, i) => (i === 3 ? 'used' : c)));
    expect(revealedList.context.secrets[3]!).toMatchObject({ id: 1050014, type: 'info' });
    expect(revealedList.context.secrets[3]!.text).toMatch(/^Secret was used at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} \+0000 UTC$/);
    expect(typeof revealedList.context.secrets[3]!.context.used_at_unix).toBe('number');

    // Disabled: the codes are gone, the flow offers to generate new ones, and whoami accepts aal1 again.
    const disabled = await submit(revealFlow.id, { method: 'lookup_secret', lookup_secret_disable: true });
    expect(disabled.data.state).toBe('success');
    expect(lookupNodes(disabled.data as unknown as Flow)).toEqual([['lookup_secret_regenerate', 1050008]]);
    expect((await api.toSession({ xSessionToken: third.token })).data.authenticator_assurance_level).toBe('aal1');
    const noReveal = await submit(revealFlow.id, { method: 'lookup_secret', lookup_secret_reveal: true });
    expect(noReveal.status).toBe(400);
    expect((noReveal.data as unknown as { error: { reason: string } }).error.reason).toBe('Can not reveal lookup codes because you have none.');

    // The /mfa switch: off, the flows have no backup codes at all.
    await owner.projectConfig.setMfa({ projectId, lookup_secret_enabled: false });
    const off = (await api.createNativeSettingsFlow({ xSessionToken: token })).data as unknown as Flow;
    expect(groups(off)).not.toContain('lookup_secret');
    const offSubmit = await submit(off.id, { method: 'lookup_secret', lookup_secret_regenerate: true });
    expect(offSubmit.status).toBe(400);
    expect((offSubmit.data as unknown as Flow).ui.messages?.[0]).toMatchObject({ id: 4010004 });
  });

  it('does not ask a session for a second factor its identity only has while backup codes are switched off', async () => {
    const { projectId, slug, api } = await newProject('Lookup switched');
    await owner.projectConfig.setMfa({ projectId, lookup_secret_enabled: true });
    const signedUp = await signUpToProject(stack.url, slug, 'lookup-switch@example.com');
    const flow = (await api.createNativeSettingsFlow({ xSessionToken: signedUp.token })).data as unknown as Flow;
    const body = (b: Record<string, unknown>) => ({ flow: flow.id, xSessionToken: signedUp.token, updateSettingsFlowBody: b as never });
    await api.updateSettingsFlow(body({ method: 'lookup_secret', lookup_secret_regenerate: true }));
    await api.updateSettingsFlow(body({ method: 'lookup_secret', lookup_secret_confirm: true }));
    const signedIn = await signInToProject(stack.url, slug, 'lookup-switch@example.com');
    expect((await api.toSession({ xSessionToken: signedIn.token }, anyStatus)).status).toBe(403);
    await owner.projectConfig.setMfa({ projectId, lookup_secret_enabled: false });
    expect((await api.toSession({ xSessionToken: signedIn.token })).data.authenticator_assurance_level).toBe('aal1');
    const login = (await api.createNativeLoginFlow({ aal: 'aal2', xSessionToken: signedIn.token })).data as unknown as Flow;
    expect(groups(login)).not.toContain('lookup_secret');
  });
});

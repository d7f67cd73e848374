import type { UiNode } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { frontendApi, registerUser, signUpToProject } from '../test-support/users';
import { softAuthenticator, type SoftKey } from '../test-support/soft-authenticator';

/*
 * Passkeys in a project's settings flow (Kratos' passkey settings: `passkey_settings_register`, `passkey_remove`),
 * driven over HTTP with a software authenticator: more than one passkey per identity, each signing in, and
 * never the removal of the last way an identity has to sign in.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Passkey Settings Owner' })).cookie);
});
afterAll(async () => {
  await stack?.close();
});

const anyStatus = { validateStatus: () => true };
type Message = { id: number; text: string; type: string; context?: Record<string, unknown> };
type Flow = { id: string; state: string; ui: { nodes: UiNode[]; messages?: Message[] } };
type Attrs = { name?: string; id?: string; type?: string; value?: string; disabled?: boolean };
const attrs = (n: UiNode) => n.attributes as Attrs;
const valueOf = (flow: Flow, name: string) => flow.ui.nodes.find((n) => attrs(n).name === name && attrs(n).type !== 'submit')?.attributes as Attrs | undefined;
const removeButtons = (flow: Flow) => flow.ui.nodes.filter((n) => attrs(n).name === 'passkey_remove');
const hexOf = (key: SoftKey) => key.id.toString('hex');

async function passkeyProject(name: string) {
  const project = await owner.projects.create({ name, environment: 'dev' });
  await owner.projectConfig.setPasswordless({ projectId: project.id, passkey_enabled: true });
  return { projectId: project.id, slug: project.slug, api: frontendApi(`${stack.url}/project-api/${project.slug}`) };
}

/** An end user who signs up with a passkey only, through the project's native registration flow. */
async function signUpWithPasskey(api: ReturnType<typeof frontendApi>, soft: ReturnType<typeof softAuthenticator>, email: string) {
  const flow = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
  const createData = JSON.parse(valueOf(flow, 'passkey_create_data')!.value!) as { credentialOptions: { publicKey: Parameters<typeof soft.create>[0] } };
  const { answer, key } = soft.create(createData.credentialOptions.publicKey);
  const res = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'passkey', passkey_register: answer, traits: { email } } as never });
  return { token: res.data.session_token!, identityId: res.data.identity.id, key };
}

async function signInWith(api: ReturnType<typeof frontendApi>, soft: ReturnType<typeof softAuthenticator>, key: SoftKey) {
  const flow = (await api.createNativeLoginFlow()).data as unknown as Flow;
  const challenge = JSON.parse(valueOf(flow, 'passkey_challenge')!.value!) as { publicKey: Parameters<typeof soft.get>[0] };
  return api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'passkey', passkey_login: soft.get(challenge.publicKey, key) } as never }, anyStatus);
}

const settingsFlow = async (api: ReturnType<typeof frontendApi>, token: string) => (await api.createNativeSettingsFlow({ xSessionToken: token })).data as unknown as Flow;
const submitSettings = (api: ReturnType<typeof frontendApi>, token: string, flow: Flow, body: Record<string, string>) =>
  api.updateSettingsFlow({ flow: flow.id, xSessionToken: token, updateSettingsFlowBody: body as never }, anyStatus);

describe('passkeys in the settings flow', () => {
  it('adds a second passkey under the same user handle, signs in with each, and removes one but never the last', async () => {
    const { api } = await passkeyProject('Passkey settings');
    const soft = softAuthenticator(new URL(stack.url).origin);
    const user = await signUpWithPasskey(api, soft, 'two-keys@example.com');

    const first = await settingsFlow(api, user.token);
    const passkeyGroup = first.ui.nodes.filter((n) => n.group === 'passkey' || n.group === 'webauthn').map((n) => [n.group, attrs(n).name ?? attrs(n).id, attrs(n).type]);
    expect(passkeyGroup).toEqual([
      ['passkey', 'passkey_remove', 'submit'],
      ['webauthn', 'webauthn_script', 'text/javascript'],
      ['passkey', 'passkey_register_trigger', 'button'],
      ['passkey', 'passkey_settings_register', 'hidden'],
      ['passkey', 'passkey_create_data', 'hidden'],
    ]);
    const [onlyRemove] = removeButtons(first);
    // The only passkey of an identity without a password is its only way in: its remove button is disabled.
    expect(onlyRemove!.attributes).toMatchObject({ value: hexOf(user.key), disabled: true });
    expect(onlyRemove!.meta.label).toMatchObject({ id: 1050020, text: 'Remove passkey "unnamed"', type: 'info', context: { display_name: 'unnamed' } });
    expect(first.ui.nodes.find((n) => attrs(n).name === 'passkey_register_trigger')!.meta.label).toEqual({ id: 1050019, text: 'Add passkey', type: 'info' });
    const refused = await submitSettings(api, user.token, first, { method: 'passkey', passkey_remove: hexOf(user.key) });
    expect(refused.status).toBe(400);
    expect((refused.data as unknown as Flow).ui.messages).toEqual([{ id: 4000001, type: 'error', text: 'unable to remove this security key because it would lock you out of your account' }]);
    expect((await signInWith(api, soft, user.key)).status).toBe(200);

    const options = (JSON.parse(valueOf(first, 'passkey_create_data')!.value!) as { publicKey: Parameters<typeof soft.create>[0] & { excludeCredentials: { id: string }[] } }).publicKey;
    expect(options.user.id).toBe(user.key.userHandle);
    expect(options.excludeCredentials.map((c) => c.id)).toEqual([user.key.id.toString('base64url')]);
    const second = soft.create(options);
    const added = await submitSettings(api, user.token, first, { method: 'passkey', passkey_settings_register: second.answer });
    expect(added.status).toBe(200);
    const afterAdd = added.data as unknown as Flow;
    expect(afterAdd.state).toBe('success');
    expect(removeButtons(afterAdd).map((n) => [attrs(n).value, attrs(n).disabled])).toEqual([
      [hexOf(user.key), false],
      [hexOf(second.key), false],
    ]);
    // The answer is used up with the flow's challenge: posting it again adds nothing.
    const replay = await submitSettings(api, user.token, afterAdd, { method: 'passkey', passkey_settings_register: second.answer });
    expect((replay.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4000043]);

    for (const key of [user.key, second.key]) {
      const signedIn = await signInWith(api, soft, key);
      expect(signedIn.status).toBe(200);
      expect((signedIn.data as { session: { identity: { id: string } } }).session.identity.id).toBe(user.identityId);
    }

    const removed = await submitSettings(api, user.token, afterAdd, { method: 'passkey', passkey_remove: hexOf(user.key) });
    expect(removed.status).toBe(200);
    expect(removeButtons(removed.data as unknown as Flow).map((n) => [attrs(n).value, attrs(n).disabled])).toEqual([[hexOf(second.key), true]]);
    const gone = await signInWith(api, soft, user.key);
    expect((gone.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4000015]);
    expect((await signInWith(api, soft, second.key)).status).toBe(200);

    const missing = await submitSettings(api, user.token, removed.data as unknown as Flow, { method: 'passkey', passkey_remove: hexOf(user.key) });
    expect(missing.status).toBe(400);
    expect((missing.data as unknown as { error: { reason: string } }).error.reason).toBe('You tried to remove a passkey which does not exist.');
  });

  it("lets a password user add a passkey and remove it again, and touches no other identity's keys", async () => {
    const { slug, api } = await passkeyProject('Passkey beside password');
    const soft = softAuthenticator(new URL(stack.url).origin);
    const withPassword = await signUpToProject(stack.url, slug, 'with-password@example.com');
    const flow = await settingsFlow(api, withPassword.token);
    expect(removeButtons(flow)).toEqual([]);
    const created = soft.create((JSON.parse(valueOf(flow, 'passkey_create_data')!.value!) as { publicKey: Parameters<typeof soft.create>[0] }).publicKey);
    const forged = await submitSettings(api, withPassword.token, flow, { method: 'passkey', passkey_settings_register: created.answer.replace(/"clientDataJSON":"[^"]+"/, '"clientDataJSON":"e30"') });
    expect((forged.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4000043]);
    const added = await submitSettings(api, withPassword.token, flow, { method: 'passkey', passkey_settings_register: created.answer });
    expect(added.status).toBe(200);
    // A password and a passkey: either may go.
    expect(removeButtons(added.data as unknown as Flow).map((n) => attrs(n).disabled)).toEqual([false]);

    const stranger = await signUpWithPasskey(api, soft, 'stranger@example.com');
    const theirs = await settingsFlow(api, stranger.token);
    const notTheirs = await submitSettings(api, stranger.token, theirs, { method: 'passkey', passkey_remove: hexOf(created.key) });
    expect(notTheirs.status).toBe(400);
    expect((await signInWith(api, soft, created.key)).status).toBe(200);

    const removed = await submitSettings(api, withPassword.token, added.data as unknown as Flow, { method: 'passkey', passkey_remove: hexOf(created.key) });
    expect(removed.status).toBe(200);
    expect(removeButtons(removed.data as unknown as Flow)).toEqual([]);
    const gone = await signInWith(api, soft, created.key);
    expect((gone.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4000015]);
  });
});

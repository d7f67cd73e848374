import type { UiNode } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { frontendApi, registerUser } from '../test-support/users';

/*
 * Passkeys of a project (`projectConfig.setPasswordless`), shown by the nodes its flows offer on a real local
 * stack over HTTP and by the answers they refuse. The ceremonies themselves need an authenticator: the
 * passkey journey (e2e) signs up and in with Chromium's virtual one.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Passkey Owner' })).cookie);
});
afterAll(async () => {
  await stack?.close();
});

const anyStatus = { validateStatus: () => true };
type Flow = { id: string; ui: { nodes: UiNode[]; messages?: { id: number; text: string }[] } };
const named = (flow: Flow) => flow.ui.nodes.map((n) => [n.group, (n.attributes as { name?: string; id?: string }).name ?? (n.attributes as { id?: string }).id]);
const valueOf = (flow: Flow, name: string) => (flow.ui.nodes.find((n) => (n.attributes as { name?: string }).name === name)?.attributes as { value?: string } | undefined)?.value;
const passkeyNodes = (flow: Flow) => named(flow).filter(([g]) => g === 'passkey' || g === 'webauthn');

async function newProject(name: string) {
  const project = await owner.projects.create({ name, environment: 'dev' });
  return { projectId: project.id, slug: project.slug, base: `${stack.url}/project-api/${project.slug}`, api: frontendApi(`${stack.url}/project-api/${project.slug}`) };
}

describe('passkeys of a project', () => {
  it('are offered by registration and login only while /passwordless turns them on, named as the page says', async () => {
    const { projectId, base, api } = await newProject('Passkeys');
    expect((await owner.projectConfig.get({ projectId })).passwordless).toMatchObject({ passkey_enabled: false, passkey_display_name: '' });
    const offRegistration = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    const offLogin = (await api.createNativeLoginFlow()).data as unknown as Flow;
    expect(passkeyNodes(offRegistration)).toEqual([]);
    expect(passkeyNodes(offLogin)).toEqual([]);

    const saved = await owner.projectConfig.setPasswordless({ projectId, passkey_enabled: true, passkey_display_name: 'Acme Passkeys' });
    expect(saved.passwordless).toMatchObject({ passkey_enabled: true, passkey_display_name: 'Acme Passkeys' });
    expect(saved.authentication.passkey_enabled).toBe(true);

    const registration = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    expect(passkeyNodes(registration)).toEqual([
      ['webauthn', 'webauthn_script'],
      ['passkey', 'passkey_register_trigger'],
      ['passkey', 'passkey_register'],
      ['passkey', 'passkey_create_data'],
    ]);
    const trigger = registration.ui.nodes.find((n) => (n.attributes as { name?: string }).name === 'passkey_register_trigger')!;
    expect(trigger.attributes).toMatchObject({ type: 'button', onclick: 'window.oryPasskeyRegistration()', onclickTrigger: 'oryPasskeyRegistration' });
    expect(trigger.meta.label).toEqual({ id: 1040007, text: 'Sign up with passkey', type: 'info' });
    const scriptSrc = (registration.ui.nodes.find((n) => n.group === 'webauthn')!.attributes as { src: string }).src;
    expect(scriptSrc).toBe(`${base}/.well-known/ory/webauthn.js`);
    const createData = JSON.parse(valueOf(registration, 'passkey_create_data')!) as {
      credentialOptions: { publicKey: { rp: { name: string; id: string }; challenge: string; user: { id: string }; authenticatorSelection: { residentKey: string } } };
      displayNameFieldName: string;
    };
    expect(createData.displayNameFieldName).toBe('traits.email');
    expect(createData.credentialOptions.publicKey.rp).toEqual({ name: 'Acme Passkeys', id: new URL(stack.url).hostname });
    expect(createData.credentialOptions.publicKey.authenticatorSelection.residentKey).toBe('required');
    expect(createData.credentialOptions.publicKey.challenge).toMatch(/^[\w-]{16,}$/);

    const login = (await api.createNativeLoginFlow()).data as unknown as Flow;
    expect(passkeyNodes(login)).toEqual([
      ['webauthn', 'webauthn_script'],
      ['passkey', 'passkey_login_trigger'],
      ['passkey', 'passkey_login'],
      ['passkey', 'passkey_challenge'],
    ]);
    expect(login.ui.nodes.find((n) => (n.attributes as { name?: string }).name === 'passkey_login_trigger')!.meta.label).toEqual({ id: 1010021, text: 'Sign in with passkey', type: 'info' });
    const challenge = JSON.parse(valueOf(login, 'passkey_challenge')!) as { publicKey: { rpId: string; challenge: string } };
    expect(challenge.publicKey.rpId).toBe(new URL(stack.url).hostname);

    const script = await fetch(scriptSrc);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(await script.text()).toContain('window.oryPasskeyLogin');

    // Without a display name of its own the project's host names the passkeys.
    await owner.projectConfig.setPasswordless({ projectId, passkey_display_name: '' });
    const unnamed = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    expect((JSON.parse(valueOf(unnamed, 'passkey_create_data')!) as { credentialOptions: { publicKey: { rp: { name: string } } } }).credentialOptions.publicKey.rp.name).toBe(
      new URL(stack.url).hostname,
    );

    await owner.projectConfig.setPasswordless({ projectId, passkey_enabled: false });
    expect(passkeyNodes((await api.createNativeRegistrationFlow()).data as unknown as Flow)).toEqual([]);
    expect(passkeyNodes((await api.createNativeLoginFlow()).data as unknown as Flow)).toEqual([]);
  });

  it('refuse an answer no authenticator made, and create no identity; a switched-off method refuses every answer', async () => {
    const { projectId, api } = await newProject('Passkey answers');
    await owner.projectConfig.setPasswordless({ projectId, passkey_enabled: true });
    const registration = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    const forged = JSON.stringify({ id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', attestationObject: 'oA' }, clientExtensionResults: {} });
    const refused = await api.updateRegistrationFlow(
      { flow: registration.id, updateRegistrationFlowBody: { method: 'passkey', passkey_register: forged, traits: { email: 'forged@example.com' } } as never },
      anyStatus,
    );
    expect(refused.status).toBe(400);
    expect((refused.data as unknown as Flow).ui.messages).toEqual([{ id: 4000043, text: 'The provided web authn login is invalid, please try again.', type: 'error' }]);
    expect((await owner.identities.list({ projectId })).total).toBe(0);

    const login = (await api.createNativeLoginFlow()).data as unknown as Flow;
    const stranger = JSON.stringify({ id: 'AAAA', rawId: 'AAAA', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA', userHandle: 'bm8tc3VjaC11c2Vy' }, clientExtensionResults: {} });
    const unknown = await api.updateLoginFlow({ flow: login.id, updateLoginFlowBody: { method: 'passkey', passkey_login: stranger } as never }, anyStatus);
    expect(unknown.status).toBe(400);
    expect((unknown.data as unknown as Flow).ui.messages).toEqual([{ id: 4000015, text: 'This account does not exist or has no security key set up.', type: 'error' }]);

    await owner.projectConfig.setPasswordless({ projectId, passkey_enabled: false });
    const off = (await api.createNativeLoginFlow()).data as unknown as Flow;
    const offAnswer = await api.updateLoginFlow({ flow: off.id, updateLoginFlowBody: { method: 'passkey', passkey_login: stranger } as never }, anyStatus);
    expect(offAnswer.status).toBe(400);
    expect((offAnswer.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4010002]);
  });
});

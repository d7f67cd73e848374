import type { UiNode } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';
import { softAuthenticator } from '../test-support/soft-authenticator';
import { anyStatus, browserOf as browser, csrfOf } from '../test-support/project-flows';

/*
 * Security keys as a second factor (`projectConfig.setMfa({ webauthn_enabled })`, Kratos' webauthn method with
 * `passwordless: false`), driven over HTTP through a project's browser flows with a software authenticator:
 * enrolled in settings, asked by a login with `aal=aal2`, and the whoami check's `highest_available` rule.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Security Key Owner' })).cookie);
});
afterAll(async () => {
  await stack?.close();
});

type Message = { id: number; text: string; type: string };
type Flow = { id: string; state: string; ui: { nodes: UiNode[]; messages?: Message[] } };
type Attrs = { name?: string; id?: string; type?: string; value?: string; onclick?: string; onclickTrigger?: string };
const attrs = (n: UiNode) => n.attributes as Attrs;
const node = (flow: Flow, name: string) => flow.ui.nodes.find((n) => attrs(n).name === name);
const group = (flow: Flow) => flow.ui.nodes.filter((n) => n.group === 'webauthn').map((n) => [attrs(n).name ?? attrs(n).id, attrs(n).type]);
const PASSWORD = 'a-Long-and-unusual-passw0rd';

/** A signed-in end user of the project's browser flows (its own cookie jar). */
async function signUp(base: string, email: string) {
  const b = browser(base);
  const flow = b.keep(await b.api.createBrowserRegistrationFlow());
  b.keep(
    await b.api.updateRegistrationFlow({
      flow: flow.data.id,
      cookie: b.cookie(),
      updateRegistrationFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), password: PASSWORD, traits: { email, name: 'Key User' } },
    }),
  );
  return b;
}

async function signIn(base: string, email: string) {
  const b = browser(base);
  const flow = b.keep(await b.api.createBrowserLoginFlow());
  b.keep(await b.api.updateLoginFlow({ flow: flow.data.id, cookie: b.cookie(), updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), identifier: email, password: PASSWORD } }));
  return b;
}

describe('security keys as a second factor', () => {
  it('are enrolled in settings, asked by an aal2 login, and removed again', async () => {
    const project = await owner.projects.create({ name: 'Security keys', environment: 'dev' });
    const base = `${stack.url}/project-api/${project.slug}`;
    const soft = softAuthenticator(new URL(stack.url).origin);
    const email = 'key-user@example.com';
    const user = await signUp(base, email);
    const off = user.keep(await user.api.createBrowserSettingsFlow({ cookie: user.cookie() })).data as unknown as Flow;
    expect(group(off)).toEqual([]);

    const saved = await owner.projectConfig.setMfa({ projectId: project.id, webauthn_enabled: true });
    expect(saved.mfa.webauthn_enabled).toBe(true);
    const settings = user.keep(await user.api.createBrowserSettingsFlow({ cookie: user.cookie() })).data as unknown as Flow;
    expect(group(settings)).toEqual([
      ['webauthn_script', 'text/javascript'],
      ['webauthn_register_displayname', 'text'],
      ['webauthn_register_trigger', 'button'],
      ['webauthn_register', 'hidden'],
    ]);
    const trigger = node(settings, 'webauthn_register_trigger')!;
    expect(trigger.meta.label).toEqual({ id: 1050012, text: 'Add security key', type: 'info' });
    expect(node(settings, 'webauthn_register_displayname')!.meta.label).toEqual({ id: 1050013, text: 'Name of the security key', type: 'info' });
    expect(attrs(trigger).onclickTrigger).toBe('oryWebAuthnRegistration');
    expect(attrs(trigger).onclick).toBe(`window.oryWebAuthnRegistration(${attrs(trigger).value})`);
    // Native apps get no security keys, as in Kratos: the ceremony needs the browser's script.
    const token = (await user.api.createNativeSettingsFlow({}, { ...anyStatus, headers: { cookie: user.cookie() } })).data as unknown as Flow;
    expect(token.ui?.nodes?.filter((n) => n.group === 'webauthn') ?? []).toEqual([]);

    const options = (JSON.parse(attrs(trigger).value!) as { publicKey: Parameters<typeof soft.create>[0] }).publicKey;
    const { answer, key } = soft.create(options);
    const added = await user.api.updateSettingsFlow(
      { flow: settings.id, cookie: user.cookie(), updateSettingsFlowBody: { method: 'webauthn', csrf_token: csrfOf(settings), webauthn_register: answer, webauthn_register_displayname: 'Desk key' } as never },
      anyStatus,
    );
    expect(added.status).toBe(200);
    const remove = node(added.data as unknown as Flow, 'webauthn_remove')!;
    expect(attrs(remove).value).toBe(key.id.toString('hex'));
    expect(remove.meta.label).toMatchObject({ id: 1050018, text: 'Remove security key "Desk key"', context: { display_name: 'Desk key' } });
    // The key just proven counts as the enrolling session's second factor.
    const enrolled = await user.api.toSession({ cookie: user.cookie() });
    expect(enrolled.data.authenticator_assurance_level).toBe('aal2');
    expect(enrolled.data.authentication_methods?.map((m) => m.method)).toEqual(['password', 'webauthn']);

    // A new sign-in with the password alone is not enough for whoami (`highest_available`)...
    const later = await signIn(base, email);
    const refused = await later.api.toSession({ cookie: later.cookie() }, anyStatus);
    expect(refused.status).toBe(403);
    expect((refused.data as unknown as { error: { id: string } }).error.id).toBe('session_aal2_required');
    // ...until a login with aal=aal2 gets the key's signature.
    const second = later.keep(await later.api.createBrowserLoginFlow({ aal: 'aal2', cookie: later.cookie() })).data as unknown as Flow;
    const loginTrigger = node(second, 'webauthn_login_trigger')!;
    expect(loginTrigger.meta.label).toEqual({ id: 1010008, text: 'Sign in with a hardware key', type: 'info' });
    const request = (JSON.parse(attrs(loginTrigger).value!) as { publicKey: Parameters<typeof soft.get>[0] & { allowCredentials: { id: string }[] } }).publicKey;
    expect(request.allowCredentials.map((c) => c.id)).toEqual([key.id.toString('base64url')]);
    const stranger = soft.create(options).key;
    const wrong = await later.api.updateLoginFlow(
      { flow: second.id, cookie: later.cookie(), updateLoginFlowBody: { method: 'webauthn', csrf_token: csrfOf(second), webauthn_login: soft.get(request, stranger) } as never },
      anyStatus,
    );
    expect(wrong.status).toBe(400);
    expect((wrong.data as unknown as Flow).ui.messages).toEqual([{ id: 4000043, type: 'error', text: 'The provided web authn login is invalid, please try again.' }]);
    const ok = await later.api.updateLoginFlow(
      { flow: second.id, cookie: later.cookie(), updateLoginFlowBody: { method: 'webauthn', csrf_token: csrfOf(second), webauthn_login: soft.get(request, key) } as never },
      anyStatus,
    );
    expect(ok.status).toBe(200);
    const raised = await later.api.toSession({ cookie: later.cookie() });
    expect(raised.data.authenticator_assurance_level).toBe('aal2');
    expect(raised.data.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ['password', 'aal1'],
      ['webauthn', 'aal2'],
    ]);

    // Removing the key: a second factor never locks anyone out, and password sign-ins are enough again.
    const again = later.keep(await later.api.createBrowserSettingsFlow({ cookie: later.cookie() })).data as unknown as Flow;
    const missing = await later.api.updateSettingsFlow(
      { flow: again.id, cookie: later.cookie(), updateSettingsFlowBody: { method: 'webauthn', csrf_token: csrfOf(again), webauthn_remove: 'abcdef' } as never },
      anyStatus,
    );
    expect((missing.data as unknown as { error: { reason: string } }).error.reason).toBe('You tried to remove a WebAuthn credential which does not exist.');
    const removed = await later.api.updateSettingsFlow(
      { flow: again.id, cookie: later.cookie(), updateSettingsFlowBody: { method: 'webauthn', csrf_token: csrfOf(again), webauthn_remove: key.id.toString('hex') } as never },
      anyStatus,
    );
    expect(removed.status).toBe(200);
    expect(node(removed.data as unknown as Flow, 'webauthn_remove')).toBeUndefined();
    const plain = await signIn(base, email);
    expect((await plain.api.toSession({ cookie: plain.cookie() })).data.authenticator_assurance_level).toBe('aal1');
  });
});

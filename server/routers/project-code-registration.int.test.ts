import type { UiNode } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { frontendApi, registerUser, signUpToProject } from '../test-support/users';
import { browserOf, csrfOf, latestMailedCode } from '../test-support/project-flows';
import { emailTrait, identitySchemaOf } from '../test-support/identity-schemas';

/*
 * Sign-up with a one-time code (`projectConfig.setPasswordless({ code_passwordless_enabled })`, the switch of
 * sign-in by code), driven over HTTP through a project's registration flows, the code read from the mailbox.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Sign-up Code Owner' })).cookie);
});
afterAll(async () => {
  await stack?.close();
});

const anyStatus = { validateStatus: () => true };
type Message = { id: number; text: string; type: string; context?: unknown };
type Flow = { id: string; state: string; active?: string; ui: { nodes: UiNode[]; messages?: Message[] } };
type Attrs = { name?: string; type?: string; value?: unknown; autocomplete?: string; required?: boolean };
const named = (flow: Flow) => flow.ui.nodes.map((n) => [n.group, (n.attributes as Attrs).name, (n.attributes as Attrs).type]);
const codeNodes = (flow: Flow) => named(flow).filter(([g]) => g === 'code');
const messageIds = (flow: unknown) => (flow as Flow).ui.messages?.map((m) => m.id);
const otherThan = (code: string) => (code === '000000' ? '111111' : '000000');

async function codeProject(name: string) {
  const project = await owner.projects.create({ name, environment: 'dev' });
  await owner.projectConfig.setPasswordless({ projectId: project.id, code_passwordless_enabled: true });
  return { projectId: project.id, slug: project.slug, api: frontendApi(`${stack.url}/project-api/${project.slug}`) };
}

describe('sign-up with a one-time code', () => {
  it('is offered only while /passwordless turns it on, mails a registration code, and creates the identity verified with a session', async () => {
    const project = await owner.projects.create({ name: 'Sign-up codes', environment: 'dev' });
    const api = frontendApi(`${stack.url}/project-api/${project.slug}`);
    const email = 'new-by-code@example.com';
    const off = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    expect(codeNodes(off)).toEqual([]);
    const refused = await api.updateRegistrationFlow({ flow: off.id, updateRegistrationFlowBody: { method: 'code', traits: { email } } as never }, anyStatus);
    expect(refused.status).toBe(400);
    expect(messageIds(refused.data)).toEqual([4010003]);

    await owner.projectConfig.setPasswordless({ projectId: project.id, code_passwordless_enabled: true });
    const flow = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    expect(codeNodes(flow)).toEqual([['code', 'method', 'submit']]);
    const send = flow.ui.nodes.find((n) => n.group === 'code')!;
    expect(send.attributes).toMatchObject({ value: 'code' });
    expect(send.meta.label).toEqual({ id: 1040006, text: 'Send sign up code', type: 'info' });
    // The password form stays beside it.
    expect(named(flow).filter(([g]) => g === 'password')).toEqual([
      ['password', 'password', 'password'],
      ['password', 'method', 'submit'],
    ]);

    // Kratos answers the dispatch with the flow and 400: the sign-up waits for the code.
    const sent = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits: { email: ' New-By-Code@Example.com ', name: 'Coded' } } as never }, anyStatus);
    expect(sent.status).toBe(400);
    const sentFlow = sent.data as unknown as Flow;
    expect(sentFlow.state).toBe('sent_email');
    expect(sentFlow.active).toBe('code');
    expect(sentFlow.ui.messages).toEqual([
      { id: 1040005, type: 'info', text: 'A code has been sent to the address(es) you provided. If you have not received a message, check the spelling of the address and retry the registration.' },
    ]);
    // The traits stay, hidden; the password form and the other methods go; the code, Continue and Resend come.
    expect(named(sentFlow)).toEqual([
      ['default', 'traits.email', 'hidden'],
      ['default', 'traits.name', 'hidden'],
      ['code', 'method', 'hidden'],
      ['code', 'code', 'text'],
      ['code', 'method', 'submit'],
      ['code', 'resend', 'submit'],
    ]);
    expect(sentFlow.ui.nodes.find((n) => (n.attributes as Attrs).name === 'traits.name')!.attributes).toMatchObject({ value: 'Coded' });
    const codeInput = sentFlow.ui.nodes.find((n) => (n.attributes as Attrs).name === 'code')!;
    expect(codeInput.meta.label).toEqual({ id: 1070012, text: 'Registration code', type: 'info' });
    expect(codeInput.attributes).toMatchObject({ required: true, autocomplete: 'one-time-code' });
    const resend = sentFlow.ui.nodes.find((n) => (n.attributes as Attrs).name === 'resend')!;
    expect(resend.attributes).toMatchObject({ value: 'code' });
    expect(resend.meta.label).toEqual({ id: 1070008, text: 'Resend code', type: 'info' });
    const { code, message } = await latestMailedCode(stack.url, email, project.slug);
    expect(message).toMatchObject({ template_type: 'registration_code_valid', recipient: email, subject: 'Complete your account registration' });
    // Nobody exists until the code comes back.
    expect((await owner.identities.list({ projectId: project.id })).identities.map((i) => (i.traits as { email?: string }).email)).not.toContain(email);

    // The form sends back the traits it holds, as they were typed.
    const traits = { email: ' New-By-Code@Example.com ', name: 'Coded' };
    const missing = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits } as never }, anyStatus);
    expect(missing.status).toBe(400);
    expect((missing.data as unknown as Flow).ui.nodes.find((n) => (n.attributes as Attrs).name === 'code')!.messages.map((m) => m.id)).toEqual([4000002]);
    const wrong = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, code: otherThan(code) } as never }, anyStatus);
    expect(wrong.status).toBe(400);
    expect((wrong.data as unknown as Flow).ui.messages).toEqual([{ id: 4040003, type: 'error', text: 'The registration code is invalid or has already been used. Please try again.' }]);
    // The code belongs to the traits it was sent for.
    const swapped = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits: { ...traits, email: 'other@example.com' }, code } as never }, anyStatus);
    expect((swapped.data as unknown as Flow).ui.messages).toEqual([{ id: 4000036, type: 'error', text: 'The provided traits do not match the traits previously associated with this flow.' }]);

    const ok = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, code } as never });
    expect(ok.status).toBe(200);
    expect(ok.data.identity.traits).toEqual({ email: 'New-By-Code@Example.com', name: 'Coded' });
    expect(ok.data.session?.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([['code', 'aal1']]);
    expect(ok.data.session_token).toMatch(/^ory_st_/);
    // The address the code reached is verified, so no verification flow follows.
    expect(ok.data.continue_with?.map((c) => c.action)).toEqual(['set_ory_session_token']);
    const identity = await owner.identities.get({ projectId: project.id, identityId: ok.data.identity.id });
    expect(identity.verifiable_addresses?.[0]).toMatchObject({ value: email, verified: true });
    // It has a `code` credential for the address, as Kratos records, so the console does not call it unable to sign in.
    expect(Object.keys(identity.credentials ?? {})).toEqual(['code']);
    expect(identity.credentials?.code?.identifiers).toEqual([email]);
    expect((await api.toSession({ xSessionToken: ok.data.session_token! })).data.identity?.id).toBe(ok.data.identity.id);

    // Single use: the flow is done, and the code creates nobody again.
    const again = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, code } as never }, anyStatus);
    expect(again.status).toBe(400);
    expect(messageIds(again.data)).toEqual([4010003]);

    // The identity signs in with a code from now on.
    const login = (await api.createNativeLoginFlow()).data as unknown as Flow;
    await api.updateLoginFlow({ flow: login.id, updateLoginFlowBody: { method: 'code', identifier: email } as never }, anyStatus);
    const loginCode = await latestMailedCode(stack.url, email, project.slug);
    expect(loginCode.message.template_type).toBe('login_code_valid');
    const signedIn = await api.updateLoginFlow({ flow: login.id, updateLoginFlowBody: { method: 'code', identifier: email, code: loginCode.code } as never });
    expect(signedIn.data.session.identity?.id).toBe(ok.data.identity.id);

    // The credential follows an email change, leaving the old address free for someone else to sign up with.
    await owner.identities.update({ projectId: project.id, identityId: ok.data.identity.id, traits: { email: 'moved-by-code@example.com', name: 'Coded' } });
    expect((await owner.identities.get({ projectId: project.id, identityId: ok.data.identity.id })).credentials?.code?.identifiers).toEqual(['moved-by-code@example.com']);
    const reuse = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    await api.updateRegistrationFlow({ flow: reuse.id, updateRegistrationFlowBody: { method: 'code', traits: { email, name: 'Second' } } as never }, anyStatus);
    const reused = await latestMailedCode(stack.url, email, project.slug);
    const second = await api.updateRegistrationFlow({ flow: reuse.id, updateRegistrationFlowBody: { method: 'code', traits: { email, name: 'Second' }, code: reused.code } as never });
    expect(second.data.identity.id).not.toBe(ok.data.identity.id);
  });

  it('signs a browser up with the cookie and sends it to the after-registration URL', async () => {
    const { projectId, slug } = await codeProject('Sign-up codes browser');
    await owner.projectConfig.setBrowserRedirects({ projectId, default_browser_return_url: 'https://app.example.com/', after_registration: 'https://app.example.com/welcome' });
    const email = 'browser-code@example.com';
    const b = browserOf(`${stack.url}/project-api/${slug}`);
    const flow = b.keep(await b.api.createBrowserRegistrationFlow());
    const csrf_token = csrfOf(flow.data);
    const sent = b.keep(
      await b.api.updateRegistrationFlow({ flow: flow.data.id, cookie: b.cookie(), updateRegistrationFlowBody: { method: 'code', csrf_token, traits: { email } } as never }, anyStatus),
    );
    expect(sent.status).toBe(400);
    expect(csrfOf(sent.data as unknown as Flow)).toBe(csrf_token);
    const { code } = await latestMailedCode(stack.url, email, slug);
    const ok = b.keep(
      await b.api.updateRegistrationFlow({ flow: flow.data.id, cookie: b.cookie(), updateRegistrationFlowBody: { method: 'code', csrf_token, traits: { email }, code } as never }),
    );
    expect(ok.data.continue_with).toEqual([{ action: 'redirect_browser_to', redirect_browser_to: 'https://app.example.com/welcome' }]);
    const session = await b.api.toSession({ cookie: b.cookie() });
    expect(session.data.identity?.id).toBe(ok.data.identity.id);
    expect(session.data.authentication_methods?.map((m) => m.method)).toEqual(['code']);
  });

  it('refuses an address that has an account, once the code comes back, as Kratos does', async () => {
    const { slug, api } = await codeProject('Sign-up codes taken');
    const email = 'taken@example.com';
    await signUpToProject(stack.url, slug, email);
    const flow = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits: { email } } as never }, anyStatus);
    const { code } = await latestMailedCode(stack.url, email, slug);
    const taken = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits: { email }, code } as never }, anyStatus);
    expect(taken.status).toBe(400);
    expect(messageIds(taken.data)).toEqual([4000007]);
  });

  it('checks the traits before mailing anything', async () => {
    const { slug, api } = await codeProject('Sign-up codes invalid');
    const flow = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    const bad = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits: { email: 'not-an-email' } } as never }, anyStatus);
    expect(bad.status).toBe(400);
    expect((bad.data as unknown as Flow).state).toBe('choose_method');
    expect((bad.data as unknown as Flow).ui.nodes.find((n) => (n.attributes as Attrs).name === 'traits.email')!.messages.map((m) => m.id)).toEqual([4000040]);
    await expect(latestMailedCode(stack.url, 'not-an-email', slug)).rejects.toThrow(/no code mailed/);
  });

  it('lets a code expire with the lifespan /passwordless sets, a resend replace it, and five submissions at most', async () => {
    const { projectId, slug, api } = await codeProject('Sign-up codes expiry');
    await owner.projectConfig.setPasswordless({ projectId, code_lifespan: '10m' });
    const email = 'expiring-sign-up@example.com';
    const traits = { email, name: 'Expiring' };
    const flow = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits } as never }, anyStatus);
    const first = await latestMailedCode(stack.url, email, slug);
    expect(first.message.body).toContain(first.code);
    const resent = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, resend: 'code' } as never }, anyStatus);
    expect((resent.data as unknown as Flow).state).toBe('sent_email');
    const second = await latestMailedCode(stack.url, email, slug);
    expect(second.message.id).not.toBe(first.message.id);
    if (first.code !== second.code) {
      const old = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, code: first.code } as never }, anyStatus);
      expect(messageIds(old.data)).toEqual([4040003]);
    }
    // Ten minutes pass on the stack's clock (the flow itself lives longer); nothing waits for them.
    stack.stack.clock.advance(10 * 60_000 + 1_000);
    const late = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, code: second.code } as never }, anyStatus);
    expect(late.status).toBe(400);
    expect(messageIds(late.data)).toEqual([4040003]);

    // A fresh code, then guesses: past five submissions even the right code is refused until another is sent.
    await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, resend: 'code' } as never }, anyStatus);
    const third = await latestMailedCode(stack.url, email, slug);
    for (let i = 0; i < 5; i++) {
      const wrong = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, code: otherThan(third.code) } as never }, anyStatus);
      expect(messageIds(wrong.data)).toEqual([4040003]);
    }
    const blocked = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, code: third.code } as never }, anyStatus);
    expect(blocked.status).toBe(400);
    expect((blocked.data as unknown as { error: { reason: string } }).error.reason).toBe('The request was submitted too often. Please request another code.');
    await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, resend: 'code' } as never }, anyStatus);
    const fourth = await latestMailedCode(stack.url, email, slug);
    const ok = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, code: fourth.code } as never });
    expect(ok.data.identity.traits).toEqual(traits);
  });

  it("follows the project's own schema: the traits it marks as code identifiers get the code, and none is refused", async () => {
    const { projectId, slug, api } = await codeProject('Sign-up codes own schema');
    const codeEmail = { ...emailTrait(), 'ory.sh/kratos': { ...emailTrait()['ory.sh/kratos'], credentials: { code: { identifier: true, via: 'email' } } } };
    const marked = await owner.schemas.create({ projectId, name: 'Members', schema: JSON.stringify(identitySchemaOf({ email: codeEmail, handle: { type: 'string', title: 'Handle' } }, ['email', 'handle'])) });
    await owner.schemas.setDefault({ projectId, schemaId: marked.id });
    const flow = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    expect(named(flow).filter(([g]) => g === 'default').map(([, name]) => name)).toEqual(['traits.email', 'traits.handle']);
    const missing = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits: { email: 'own@example.com' } } as never }, anyStatus);
    expect((missing.data as unknown as Flow).ui.nodes.find((n) => (n.attributes as Attrs).name === 'traits.handle')!.messages.map((m) => m.id)).toEqual([4000002]);
    const traits = { email: 'own@example.com', handle: 'owner-one' };
    const sent = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits } as never }, anyStatus);
    expect(named(sent.data as unknown as Flow).slice(0, 2)).toEqual([
      ['default', 'traits.email', 'hidden'],
      ['default', 'traits.handle', 'hidden'],
    ]);
    const { code } = await latestMailedCode(stack.url, 'own@example.com', slug);
    const ok = await api.updateRegistrationFlow({ flow: flow.id, updateRegistrationFlowBody: { method: 'code', traits, code } as never });
    expect(ok.data.identity.traits).toEqual(traits);
    expect(ok.data.identity.verifiable_addresses?.[0]).toMatchObject({ value: 'own@example.com', verified: true });

    // A schema that marks no trait for codes has nothing to send one to (Kratos' 4000009).
    const unmarked = await owner.schemas.create({ projectId, name: 'Password only', schema: JSON.stringify(identitySchemaOf({ email: emailTrait() }, ['email'])) });
    await owner.schemas.setDefault({ projectId, schemaId: unmarked.id });
    const other = (await api.createNativeRegistrationFlow()).data as unknown as Flow;
    const refused = await api.updateRegistrationFlow({ flow: other.id, updateRegistrationFlowBody: { method: 'code', traits: { email: 'unmarked@example.com' } } as never }, anyStatus);
    expect(refused.status).toBe(400);
    expect((refused.data as unknown as Flow).ui.messages).toEqual([
      { id: 4000009, type: 'error', text: 'Could not find any login identifiers. Did you forget to set them? This could also be caused by a server misconfiguration.' },
    ]);
    await expect(latestMailedCode(stack.url, 'unmarked@example.com', slug)).rejects.toThrow(/no code mailed/);
  });
});

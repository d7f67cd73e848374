import type { UiNode } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { frontendApi, registerUser, signUpToProject } from '../test-support/users';
import { latestMailedCode } from '../test-support/project-flows';

/*
 * Passwordless sign-in with a one-time code (`projectConfig.setPasswordless({ code_passwordless_enabled })`),
 * driven over HTTP through a project's native login flow, the code read from the developer mailbox.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Code Owner' })).cookie);
});
afterAll(async () => {
  await stack?.close();
});

const anyStatus = { validateStatus: () => true };
type Message = { id: number; text: string; type: string };
type Flow = { id: string; state: string; ui: { nodes: UiNode[]; messages?: Message[] } };
type Attrs = { name?: string; type?: string; value?: unknown; autocomplete?: string };
const named = (flow: Flow) => flow.ui.nodes.map((n) => [n.group, (n.attributes as Attrs).name, (n.attributes as Attrs).type]);
const codeNodes = (flow: Flow) => named(flow).filter(([g]) => g === 'code');

async function codeProject(name: string) {
  const project = await owner.projects.create({ name, environment: 'dev' });
  await owner.projectConfig.setPasswordless({ projectId: project.id, code_passwordless_enabled: true });
  return { projectId: project.id, slug: project.slug, api: frontendApi(`${stack.url}/project-api/${project.slug}`) };
}

async function mailed(to: string, slug: string) {
  return latestMailedCode(stack.url, to, slug);
}

describe('sign-in with a one-time code', () => {
  it('is offered only while /passwordless turns it on, and mails a login code that signs the user in once', async () => {
    const project = await owner.projects.create({ name: 'Codes', environment: 'dev' });
    const api = frontendApi(`${stack.url}/project-api/${project.slug}`);
    const email = 'code-user@example.com';
    const user = await signUpToProject(stack.url, project.slug, email);
    expect((await owner.projectConfig.get({ projectId: project.id })).passwordless.code_passwordless_enabled).toBe(false);
    const off = (await api.createNativeLoginFlow()).data as unknown as Flow;
    expect(codeNodes(off)).toEqual([]);
    const refused = await api.updateLoginFlow({ flow: off.id, updateLoginFlowBody: { method: 'code', identifier: email } as never }, anyStatus);
    expect((refused.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4010002]);

    await owner.projectConfig.setPasswordless({ projectId: project.id, code_passwordless_enabled: true });
    const flow = (await api.createNativeLoginFlow()).data as unknown as Flow;
    expect(codeNodes(flow)).toEqual([['code', 'method', 'submit']]);
    const send = flow.ui.nodes.find((n) => n.group === 'code')!;
    expect(send.attributes).toMatchObject({ value: 'code' });
    expect(send.meta.label).toEqual({ id: 1010015, text: 'Send sign in code', type: 'info' });

    // Kratos answers the dispatch with the flow and 400: the sign-in waits for the code.
    const sent = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: ' Code-User@Example.com ' } as never }, anyStatus);
    expect(sent.status).toBe(400);
    const sentFlow = sent.data as unknown as Flow;
    expect(sentFlow.state).toBe('sent_email');
    expect(sentFlow.ui.messages).toEqual([
      { id: 1010014, type: 'info', text: "A code was sent to the address you provided. If you didn't receive it, please check the spelling of the address and try again." },
    ]);
    expect(named(sentFlow)).toEqual([
      ['default', 'identifier', 'hidden'],
      ['code', 'method', 'hidden'],
      ['code', 'code', 'text'],
      ['code', 'method', 'submit'],
      ['code', 'resend', 'submit'],
    ]);
    const codeInput = sentFlow.ui.nodes.find((n) => (n.attributes as Attrs).name === 'code')!;
    expect(codeInput.meta.label).toEqual({ id: 1070013, text: 'Login code', type: 'info' });
    expect(codeInput.attributes).toMatchObject({ required: true, autocomplete: 'one-time-code' });
    const { code, message } = await mailed(email, project.slug);
    expect(message).toMatchObject({ template_type: 'login_code_valid', recipient: email, subject: 'Login to your account' });

    const wrong = await api.updateLoginFlow(
      { flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, code: code === '000000' ? '111111' : '000000' } as never },
      anyStatus,
    );
    expect(wrong.status).toBe(400);
    expect((wrong.data as unknown as Flow).ui.messages).toEqual([{ id: 4010008, type: 'error', text: 'The login code is invalid or has already been used. Please try again.' }]);

    const ok = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, code } as never });
    expect(ok.status).toBe(200);
    expect(ok.data.session.identity?.id).toBe(user.identityId);
    expect(ok.data.session.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([['code', 'aal1']]);
    expect(ok.data.session_token).toMatch(/^ory_st_/);
    // The address the code reached counts as verified.
    const identity = await owner.identities.get({ projectId: project.id, identityId: user.identityId });
    expect(identity.verifiable_addresses?.[0]).toMatchObject({ value: email, verified: true });

    // Single use: the flow is done, and the code signs nobody in again.
    const again = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, code } as never }, anyStatus);
    expect(again.status).toBe(400);
    expect((again.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4010002]);
    // Nor does it work in another flow: codes belong to the flow that sent them.
    const other = (await api.createNativeLoginFlow()).data as unknown as Flow;
    await api.updateLoginFlow({ flow: other.id, updateLoginFlowBody: { method: 'code', identifier: email } as never }, anyStatus);
    const fresh = await mailed(email, project.slug);
    const stale = code === fresh.code ? null : await api.updateLoginFlow({ flow: other.id, updateLoginFlowBody: { method: 'code', identifier: email, code } as never }, anyStatus);
    if (stale) expect((stale.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4010008]);
  });

  it('refuses an address no identity signs in with, and mails nothing', async () => {
    const { slug, api } = await codeProject('Codes unknown');
    const flow = (await api.createNativeLoginFlow()).data as unknown as Flow;
    const missing = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: '' } as never }, anyStatus);
    expect(missing.status).toBe(400);
    const identifierNode = (missing.data as unknown as Flow).ui.nodes.find((n) => (n.attributes as Attrs).name === 'identifier')!;
    expect(identifierNode.messages.map((m) => m.id)).toEqual([4000002]);
    const unknown = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: 'nobody@example.com' } as never }, anyStatus);
    expect(unknown.status).toBe(400);
    expect((unknown.data as unknown as Flow).state).toBe('choose_method');
    expect((unknown.data as unknown as Flow).ui.messages).toEqual([{ id: 4000035, type: 'error', text: 'This account does not exist or has not setup sign in with code.' }]);
    await expect(mailed('nobody@example.com', slug)).rejects.toThrow(/no code mailed/);
  });

  it('lets a code expire with the lifespan /passwordless sets, and a resend replace it', async () => {
    const { projectId, slug, api } = await codeProject('Codes expiry');
    const saved = await owner.projectConfig.setPasswordless({ projectId, code_lifespan: '10m' });
    expect(saved.passwordless.code_lifespan).toBe('10m');
    const email = 'expiring@example.com';
    await signUpToProject(stack.url, slug, email);
    const flow = (await api.createNativeLoginFlow()).data as unknown as Flow;
    await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email } as never }, anyStatus);
    const first = await mailed(email, slug);
    expect(first.message.body).toContain(first.code);
    const resent = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, resend: 'code' } as never }, anyStatus);
    expect((resent.data as unknown as Flow).state).toBe('sent_email');
    const second = await mailed(email, slug);
    expect(second.message.id).not.toBe(first.message.id);
    if (first.code !== second.code) {
      const old = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, code: first.code } as never }, anyStatus);
      expect((old.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4010008]);
    }
    // Ten minutes pass on the stack's clock (the flow itself lives longer); nothing waits for them.
    stack.stack.clock.advance(10 * 60_000 + 1_000);
    const late = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, code: second.code } as never }, anyStatus);
    expect(late.status).toBe(400);
    expect((late.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4010008]);
  });

  it('serve as the second factor once /mfa turns them on: whoami asks for aal2, and the mailed code gives it', async () => {
    const project = await owner.projects.create({ name: 'Codes second factor', environment: 'dev' });
    const api = frontendApi(`${stack.url}/project-api/${project.slug}`);
    const email = 'second-factor@example.com';
    const user = await signUpToProject(stack.url, project.slug, email);
    expect((await api.toSession({ xSessionToken: user.token })).data.authenticator_assurance_level).toBe('aal1');
    await owner.projectConfig.setMfa({ projectId: project.id, code_mfa_enabled: true });
    const refused = await api.toSession({ xSessionToken: user.token }, anyStatus);
    expect(refused.status).toBe(403);
    expect((refused.data as unknown as { error: { id: string } }).error.id).toBe('session_aal2_required');
    // The first step offers no sign-in code: codes are the second factor here.
    expect(codeNodes((await api.createNativeLoginFlow()).data as unknown as Flow)).toEqual([]);

    const flow = (await api.createNativeLoginFlow({ aal: 'aal2', xSessionToken: user.token })).data as unknown as Flow;
    const send = flow.ui.nodes.find((n) => n.group === 'code')!;
    expect(send.attributes).toMatchObject({ name: 'address', type: 'submit', value: email });
    expect(send.meta.label).toEqual({ id: 1010023, type: 'info', text: `Send code to ${email}`, context: { address: email, channel: 'email' } });
    const stranger = await api.updateLoginFlow({ flow: flow.id, xSessionToken: user.token, updateLoginFlowBody: { method: 'code', address: 'someone@example.com' } as never }, anyStatus);
    expect((stranger.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4000035]);
    const sent = await api.updateLoginFlow({ flow: flow.id, xSessionToken: user.token, updateLoginFlowBody: { method: 'code', address: email } as never }, anyStatus);
    expect(sent.status).toBe(400);
    expect((sent.data as unknown as Flow).state).toBe('sent_email');
    expect((sent.data as unknown as Flow).ui.messages).toEqual([{ id: 1010025, type: 'info', text: "A code was sent to your address. If you didn't receive it, please try again." }]);
    const { code, message } = await mailed(email, project.slug);
    expect(message.template_type).toBe('login_code_valid');
    const ok = await api.updateLoginFlow({ flow: flow.id, xSessionToken: user.token, updateLoginFlowBody: { method: 'code', identifier: email, code } as never });
    expect(ok.data.session.authenticator_assurance_level).toBe('aal2');
    expect(ok.data.session.authentication_methods?.map((m) => [m.method, m.aal])).toEqual([
      ['password', 'aal1'],
      ['code', 'aal2'],
    ]);
    expect((await api.toSession({ xSessionToken: user.token })).data.authenticator_assurance_level).toBe('aal2');
  });

  it('cannot be a way to sign in and a second factor at once, as Kratos config allows one or the other', async () => {
    const { projectId } = await codeProject('Codes exclusive');
    const refused = await owner.projectConfig.setMfa({ projectId, code_mfa_enabled: true }).catch((e: unknown) => e as { code: string; message: string });
    expect(refused).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/^One-time codes already sign users in/) });
    expect((await owner.projectConfig.get({ projectId })).mfa.code_mfa_enabled).toBe(false);
  });

  it('takes five submissions of a flow at most, then refuses even the right code until a new one is sent', async () => {
    const { slug, api } = await codeProject('Codes brute force');
    const email = 'guessed@example.com';
    const user = await signUpToProject(stack.url, slug, email);
    const flow = (await api.createNativeLoginFlow()).data as unknown as Flow;
    await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email } as never }, anyStatus);
    const { code } = await mailed(email, slug);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const wrong = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, code: wrongCode } as never }, anyStatus);
      expect((wrong.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4010008]);
    }
    const blocked = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, code } as never }, anyStatus);
    expect(blocked.status).toBe(400);
    expect((blocked.data as unknown as { error: { reason: string } }).error.reason).toBe('The request was submitted too often. Please request another code.');

    await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, resend: 'code' } as never }, anyStatus);
    const renewed = await mailed(email, slug);
    const ok = await api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, code: renewed.code } as never });
    expect(ok.data.session.identity?.id).toBe(user.identityId);
  });

  it("signs in only the identity the code was sent to, and only in the code's project", async () => {
    const a = await codeProject('Codes A');
    const b = await codeProject('Codes B');
    const email = 'two-projects@example.com';
    const inA = await signUpToProject(stack.url, a.slug, email);
    const other = 'someone-else@example.com';
    await signUpToProject(stack.url, a.slug, other);
    const flow = (await a.api.createNativeLoginFlow()).data as unknown as Flow;
    await a.api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email } as never }, anyStatus);
    const { code } = await mailed(email, a.slug);
    // The identifier is the form's: naming another identity with this code signs nobody in.
    const swapped = await a.api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: other, code } as never }, anyStatus);
    expect((swapped.data as unknown as Flow).ui.messages?.map((m) => m.id)).toEqual([4010008]);
    // Project B has no such identity and never sees A's flow.
    const inB = await b.api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, code } as never }, anyStatus);
    expect(inB.status).toBe(404);
    const ok = await a.api.updateLoginFlow({ flow: flow.id, updateLoginFlowBody: { method: 'code', identifier: email, code } as never });
    expect(ok.data.session.identity?.id).toBe(inA.identityId);
  });
});

import type { UiNode } from '@ory/client';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCaches, type AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, TEST_PUBLIC_URL, testDeps, type TestStack } from '../test-support/bff';
import { setPlan } from '../test-support/localstack-data';
import { CookieJar, frontendApi, loginUser, registerUser, type TestUser } from '../test-support/users';
import { verifyEmail } from '../test-support/verify-email';
import { softAuthenticator } from '../test-support/soft-authenticator';

/*
 * The console's own account on /settings/advanced, against a real local stack over HTTP: its sessions listed
 * and ended through `auth` procedures, and its second factors (an authenticator app, backup codes) enrolled
 * in the console's own settings flow, after which a new sign-in is asked for the second factor (§4: the
 * session fetch answers FORBIDDEN 'aal2') until a login with aal=aal2 takes it.
 */

let stack: TestStack;
let deps: AppDeps;

beforeAll(async () => {
  stack = await startTestStack();
  // No session cache: an ended session is seen as ended on the next call.
  deps = testDeps(stack.url, {}, { caches: createCaches({ sessionMs: 0 }) });
});
afterAll(async () => {
  await stack?.close();
});

type Flow = { id: string; ui: { nodes: UiNode[]; messages?: { id: number; text: string }[] } };
const attr = (n: UiNode) => n.attributes as { name?: string; id?: string; value?: unknown; text?: { context?: { secret?: string; secrets?: { text: string }[] } } };
const node = (flow: Flow, name: string) => flow.ui.nodes.find((n) => attr(n).name === name || attr(n).id === name);
const csrfOf = (flow: Flow) => String(node(flow, 'csrf_token')?.attributes && attr(node(flow, 'csrf_token')!).value);
const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

/** The browser settings flow of the console's own account, with the cookie of `user`. */
async function settingsFlow(user: TestUser) {
  const api = frontendApi(stack.url);
  const jar = new CookieJar();
  jar.store(user.cookie.split('; '));
  const created = await api.createBrowserSettingsFlow({ cookie: jar.header() });
  jar.store(created.headers['set-cookie']);
  const flow = created.data as unknown as Flow;
  const submit = async (body: Record<string, unknown>) => {
    const res = await api.updateSettingsFlow(
      { flow: flow.id, cookie: jar.header(), updateSettingsFlowBody: { csrf_token: csrfOf(flow), ...body } as never },
      { validateStatus: () => true },
    );
    return { status: res.status, flow: res.data as unknown as Flow & { state: string } };
  };
  return { flow, submit };
}

describe('the sessions of the console account', () => {
  it('lists the current session first, ends another one, refuses the current one, and ends all others', async () => {
    const user = await registerUser(stack.url, { name: 'Session keeper' });
    const second = await loginUser(stack.url, user.email, user.password);
    const third = await loginUser(stack.url, user.email, user.password);
    const me = callerFor(deps, user.cookie);
    const currentId = (await me.auth.session()).session!.id;
    const secondId = (await callerFor(deps, second.cookie).auth.session()).session!.id;

    const listed = await me.auth.sessions();
    expect(listed.identityId).toBe(user.identityId);
    expect(listed.sessions).toHaveLength(3);
    expect(listed.sessions[0]).toMatchObject({ id: currentId, current: true, aal: 'aal1', methods: ['password'] });
    expect(listed.sessions.slice(1).every((s) => !s.current)).toBe(true);
    expect(listed.sessions.map((s) => s.id)).toContain(secondId);

    expect(await me.auth.revokeSession({ sessionId: secondId })).toEqual({ revoked: true });
    expect((await callerFor(deps, second.cookie).auth.session()).session).toBeNull();
    expect((await me.auth.sessions()).sessions.map((s) => s.id)).not.toContain(secondId);

    const self = await rejection(me.auth.revokeSession({ sessionId: currentId }));
    expect(self.code).toBe('BAD_REQUEST');
    expect(self.message).toBe('This is the session you are using: sign out to end it.');
    expect((await rejection(me.auth.revokeSession({ sessionId: crypto.randomUUID() }))).code).toBe('NOT_FOUND');
    expect((await rejection(me.auth.revokeSession({ sessionId: 'not-a-session' }))).code).toBe('BAD_REQUEST');

    expect(await me.auth.revokeOtherSessions()).toEqual({ count: 1 });
    expect((await callerFor(deps, third.cookie).auth.session()).session).toBeNull();
    expect((await me.auth.sessions()).sessions.map((s) => s.id)).toEqual([currentId]);
    expect(await me.auth.revokeOtherSessions()).toEqual({ count: 0 });
  });

  it('never shows or ends another account’s sessions', async () => {
    const [a, b] = await Promise.all([registerUser(stack.url, { name: 'A' }), registerUser(stack.url, { name: 'B' })]);
    const aOther = await loginUser(stack.url, a.email, a.password);
    const aOtherId = (await callerFor(deps, aOther.cookie).auth.session()).session!.id;
    const asB = callerFor(deps, b.cookie);
    expect((await asB.auth.sessions()).sessions.map((s) => s.id)).not.toContain(aOtherId);
    expect((await rejection(asB.auth.revokeSession({ sessionId: aOtherId }))).code).toBe('NOT_FOUND');
    expect(await asB.auth.revokeOtherSessions()).toEqual({ count: 0 });
    expect((await callerFor(deps, aOther.cookie).auth.session()).session?.id).toBe(aOtherId);
  });

  it('is refused signed out', async () => {
    expect((await rejection(callerFor(deps).auth.sessions())).code).toBe('UNAUTHORIZED');
    expect((await rejection(callerFor(deps).auth.revokeOtherSessions())).code).toBe('UNAUTHORIZED');
  });
});

describe('the second factors of the console account', () => {
  it('enrols an authenticator app; a new sign-in is asked for its code (FORBIDDEN aal2) and counts once it is given', async () => {
    const user = await registerUser(stack.url, { name: 'Two factors' });
    const settings = await settingsFlow(user);
    expect(settings.flow.ui.nodes.map((n) => n.group)).toEqual(expect.arrayContaining(['totp', 'lookup_secret']));
    // The session is read (and kept a moment by the BFF) before the app is enrolled, as the page does.
    const me = callerFor(deps, user.cookie);
    expect((await me.auth.sessions()).sessions[0]).toMatchObject({ current: true, methods: ['password'] });
    const secret = attr(node(settings.flow, 'totp_secret_key')!).text!.context!.secret!;
    const enrolled = await settings.submit({ method: 'totp', totp_code: codeOf(secret) });
    expect(enrolled.flow.state).toBe('success');
    // The list shows the new method at once: the current session is read afresh, not from that moment's copy.
    expect((await me.auth.sessions()).sessions[0]).toMatchObject({ current: true, aal: 'aal2', methods: ['password', 'totp'] });
    // The session that enrolled the app proved it: it stays usable, now at aal2.
    const mine = await callerFor(deps, user.cookie).auth.session();
    expect(mine.session?.authenticator_assurance_level).toBe('aal2');

    const again = await loginUser(stack.url, user.email, user.password);
    const refused = await rejection(callerFor(deps, again.cookie).auth.session());
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toBe('aal2');
    expect((await rejection(callerFor(deps, again.cookie).auth.sessions())).code).toBe('FORBIDDEN');

    // The console's login page with aal=aal2: the flow asks for the app's code (and no password).
    const api = frontendApi(stack.url);
    const jar = new CookieJar();
    jar.store(again.cookie.split('; '));
    const created = await api.createBrowserLoginFlow({ aal: 'aal2', cookie: jar.header(), returnTo: `${TEST_PUBLIC_URL}/settings/advanced` });
    jar.store(created.headers['set-cookie']);
    const login = created.data as unknown as Flow;
    expect(login.ui.nodes.map((n) => `${n.group}:${attr(n).name}`)).toEqual(['default:csrf_token', 'totp:totp_code', 'totp:method']);
    const done = await api.updateLoginFlow({
      flow: login.id,
      cookie: jar.header(),
      updateLoginFlowBody: { method: 'totp', totp_code: codeOf(secret), csrf_token: csrfOf(login) },
    });
    expect(done.data.session.authenticator_assurance_level).toBe('aal2');
    expect((await callerFor(deps, again.cookie).auth.session()).session?.authenticator_assurance_level).toBe('aal2');
    const sessions = (await callerFor(deps, again.cookie).auth.sessions()).sessions;
    expect(sessions[0]).toMatchObject({ current: true, aal: 'aal2', methods: ['password', 'totp'] });

    // Unlinked, a new sign-in is enough on its own again.
    const unlink = await (await settingsFlow(user)).submit({ method: 'totp', totp_unlink: true });
    expect(unlink.flow.state).toBe('success');
    const plain = await loginUser(stack.url, user.email, user.password);
    expect((await callerFor(deps, plain.cookie).auth.session()).session?.authenticator_assurance_level).toBe('aal1');
  });

  it('keeps backup codes, one of which a login with aal=aal2 takes', async () => {
    const user = await registerUser(stack.url, { name: 'Backup codes' });
    const settings = await settingsFlow(user);
    const generated = await settings.submit({ method: 'lookup_secret', lookup_secret_regenerate: true });
    const codes = attr(node(generated.flow, 'lookup_secret_codes')!).text!.context!.secrets!.map((s) => s.text);
    expect(codes).toHaveLength(12);
    expect((await settings.submit({ method: 'lookup_secret', lookup_secret_confirm: true })).flow.state).toBe('success');

    const again = await loginUser(stack.url, user.email, user.password);
    expect((await rejection(callerFor(deps, again.cookie).auth.session())).message).toBe('aal2');
    const api = frontendApi(stack.url);
    const jar = new CookieJar();
    jar.store(again.cookie.split('; '));
    const created = await api.createBrowserLoginFlow({ aal: 'aal2', cookie: jar.header() });
    jar.store(created.headers['set-cookie']);
    const login = created.data as unknown as Flow;
    const use = (code: string) =>
      api.updateLoginFlow(
        { flow: login.id, cookie: jar.header(), updateLoginFlowBody: { method: 'lookup_secret', lookup_secret: code, csrf_token: csrfOf(login) } },
        { validateStatus: () => true },
      );
    expect((await use(codes[0]!)).status).toBe(200);
    expect((await callerFor(deps, again.cookie).auth.session()).session?.authenticator_assurance_level).toBe('aal2');
  });
});

describe('the passkeys of the console account', () => {
  type Soft = ReturnType<typeof softAuthenticator>;
  const removeValues = (flow: Flow) => flow.ui.nodes.filter((n) => attr(n).name === 'passkey_remove').map((n) => [attr(n).value, (n.attributes as { disabled?: boolean }).disabled]);
  const createOptions = (flow: Flow) => (JSON.parse(String(attr(node(flow, 'passkey_create_data')!).value)) as { publicKey: Parameters<Soft['create']>[0] }).publicKey;

  /** A browser sign-in to the console with the passkey `key`: the session's cookie, or the flow's answer when refused. */
  async function signInWithPasskey(soft: Soft, key: Parameters<Soft['get']>[1]) {
    const api = frontendApi(stack.url);
    const jar = new CookieJar();
    const created = await api.createBrowserLoginFlow();
    jar.store(created.headers['set-cookie']);
    const flow = created.data as unknown as Flow;
    const challenge = JSON.parse(String(attr(node(flow, 'passkey_challenge')!).value)) as { publicKey: Parameters<Soft['get']>[0] };
    const res = await api.updateLoginFlow(
      { flow: flow.id, cookie: jar.header(), updateLoginFlowBody: { method: 'passkey', passkey_login: soft.get(challenge.publicKey, key), csrf_token: csrfOf(flow) } as never },
      { validateStatus: () => true },
    );
    jar.store(res.headers['set-cookie']);
    return { status: res.status, cookie: jar.header(), flow: res.data as unknown as Flow };
  }

  it('adds passkeys in the account’s settings flow, signs in with one, and removes one; another account can touch none of them', async () => {
    const [user, other] = await Promise.all([registerUser(stack.url, { name: 'Passkey keeper' }), registerUser(stack.url, { name: 'Other' })]);
    const soft = softAuthenticator(new URL(stack.url).origin);
    const settings = await settingsFlow(user);
    expect(removeValues(settings.flow)).toEqual([]);
    const options = createOptions(settings.flow);
    // The console's own relying party: its origin's host, named Console.
    expect(options.rp).toEqual({ id: new URL(stack.url).hostname, name: 'Console' });
    const first = soft.create(options);
    const added = await settings.submit({ method: 'passkey', passkey_settings_register: first.answer });
    expect(added.flow.state).toBe('success');
    // A password and a passkey: either may go.
    expect(removeValues(added.flow)).toEqual([[first.key.id.toString('hex'), false]]);
    const second = soft.create(createOptions(added.flow));
    expect(second.key.userHandle).toBe(first.key.userHandle);
    expect((await (await settingsFlow(user)).submit({ method: 'passkey', passkey_settings_register: soft.create(createOptions(added.flow)).answer })).flow.ui.messages?.map((m) => m.id)).toEqual([4000043]);
    const again = await settingsFlow(user);
    const secondAnswer = soft.create(createOptions(again.flow));
    expect((await again.submit({ method: 'passkey', passkey_settings_register: secondAnswer.answer })).flow.state).toBe('success');

    // Signed in with the passkey alone: the console's session says so, at aal1 (a passkey is a first factor here).
    const signedIn = await signInWithPasskey(soft, first.key);
    expect(signedIn.status).toBe(200);
    const mine = await callerFor(deps, signedIn.cookie).auth.sessions();
    expect(mine.identityId).toBe(user.identityId);
    expect(mine.sessions[0]).toMatchObject({ current: true, methods: ['passkey'] });

    // Another account removes none of them, and a key of another account signs nobody in as it.
    const theirs = await settingsFlow(other);
    const refused = await theirs.submit({ method: 'passkey', passkey_remove: first.key.id.toString('hex') });
    expect(refused.status).toBe(400);
    expect((await signInWithPasskey(soft, first.key)).status).toBe(200);

    const removed = await (await settingsFlow(user)).submit({ method: 'passkey', passkey_remove: first.key.id.toString('hex') });
    expect(removed.flow.state).toBe('success');
    expect(removeValues(removed.flow)).toEqual([[secondAnswer.key.id.toString('hex'), false]]);
    const gone = await signInWithPasskey(soft, first.key);
    expect(gone.flow.ui.messages?.map((m) => m.id)).toEqual([4000015]);
    expect((await signInWithPasskey(soft, secondAnswer.key)).status).toBe(200);
  });
});

describe('deleting the console account', () => {
  it('asks for the typed address, refuses while the account is a workspace’s last owner, then ends every session and the sign-in', async () => {
    const [leaver, colleague, bystander] = await Promise.all([
      registerUser(stack.url, { name: 'Leaver' }),
      registerUser(stack.url, { name: 'Colleague' }),
      registerUser(stack.url, { name: 'Bystander' }),
    ]);
    await verifyEmail(stack.url, colleague);
    const me = callerFor(deps, leaver.cookie);
    const elsewhere = await loginUser(stack.url, leaver.email, leaver.password);
    const workspace = await me.workspaces.create({ name: 'Shared crew' });
    await setPlan(stack.stack.db, { kind: 'workspace', workspaceId: workspace.id }, 'Production@0');
    const invite = await me.invites.create({ workspaceId: workspace.id, email: colleague.email, role: 'developer' });
    await callerFor(deps, colleague.cookie).invites.accept({ inviteId: invite.created_invite.id });
    const theirs = await callerFor(deps, bystander.cookie).workspaces.create({ name: 'Bystander crew' });

    const mistyped = await rejection(me.auth.deleteAccount({ confirmEmail: leaver.email.toUpperCase() }));
    expect(mistyped.code).toBe('BAD_REQUEST');
    expect(mistyped.message).toBe('Type your email address exactly to confirm deletion');
    // Another account's address is no confirmation either.
    expect((await rejection(me.auth.deleteAccount({ confirmEmail: bystander.email }))).message).toBe('Type your email address exactly to confirm deletion');

    const lastOwner = await rejection(me.auth.deleteAccount({ confirmEmail: `  ${leaver.email} ` }));
    expect(lastOwner.code).toBe('CONFLICT');
    expect(lastOwner.message).toBe('You are the last owner of workspace "Shared crew". Make another member owner, or delete it, before you delete your account.');
    // Refused, nothing went: the account still signs in and still owns the workspace.
    expect((await me.auth.session()).session?.identity?.id).toBe(leaver.identityId);
    expect((await me.workspaces.get({ workspaceId: workspace.id })).id).toBe(workspace.id);

    await me.members.setRole({ workspaceId: workspace.id, memberId: colleague.identityId, role: 'owner' });
    expect(await me.auth.deleteAccount({ confirmEmail: leaver.email })).toEqual({ deleted: true });

    // Both of its sessions are gone, and so is the sign-in.
    expect((await callerFor(deps, leaver.cookie).auth.session()).session).toBeNull();
    expect((await callerFor(deps, elsewhere.cookie).auth.session()).session).toBeNull();
    expect((await rejection(callerFor(deps, leaver.cookie).auth.sessions())).code).toBe('UNAUTHORIZED');
    const again = await loginUser(stack.url, leaver.email, leaver.password).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(Error);
    // The workspace stays with its other owner; another account is untouched.
    const members = await callerFor(deps, colleague.cookie).members.list({ workspaceId: workspace.id });
    expect(members.map((m) => [m.id, m.role])).toEqual([[colleague.identityId, 'owner']]);
    expect((await callerFor(deps, bystander.cookie).workspaces.get({ workspaceId: theirs.id })).id).toBe(theirs.id);
  });

  it('two owners deleting their accounts at once leave one of them in charge', async () => {
    const [first, second] = await Promise.all([registerUser(stack.url, { name: 'First owner' }), registerUser(stack.url, { name: 'Second owner' })]);
    await verifyEmail(stack.url, second);
    const asFirst = callerFor(deps, first.cookie);
    const workspace = await asFirst.workspaces.create({ name: 'Two owners' });
    await setPlan(stack.stack.db, { kind: 'workspace', workspaceId: workspace.id }, 'Production@0');
    const invite = await asFirst.invites.create({ workspaceId: workspace.id, email: second.email, role: 'developer' });
    await callerFor(deps, second.cookie).invites.accept({ inviteId: invite.created_invite.id });
    await asFirst.members.setRole({ workspaceId: workspace.id, memberId: second.identityId, role: 'owner' });

    const outcomes = await Promise.allSettled([
      asFirst.auth.deleteAccount({ confirmEmail: first.email }),
      callerFor(deps, second.cookie).auth.deleteAccount({ confirmEmail: second.email }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const refused = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
    expect((refused.reason as { code: string }).code).toBe('CONFLICT');
    const stayed = outcomes[0].status === 'rejected' ? first : second;
    const members = await callerFor(deps, stayed.cookie).members.list({ workspaceId: workspace.id });
    expect(members.map((m) => [m.id, m.role])).toEqual([[stayed.identityId, 'owner']]);
  });

  it('never deletes another account, and refuses signed out', async () => {
    const [a, b] = await Promise.all([registerUser(stack.url, { name: 'A' }), registerUser(stack.url, { name: 'B' })]);
    expect((await rejection(callerFor(deps, b.cookie).auth.deleteAccount({ confirmEmail: a.email }))).code).toBe('BAD_REQUEST');
    expect((await rejection(callerFor(deps).auth.deleteAccount({ confirmEmail: a.email }))).code).toBe('UNAUTHORIZED');
    expect(await callerFor(deps, b.cookie).auth.deleteAccount({ confirmEmail: b.email })).toEqual({ deleted: true });
    expect((await callerFor(deps, a.cookie).auth.session()).session?.identity?.id).toBe(a.identityId);
    expect((await callerFor(deps, b.cookie).auth.session()).session).toBeNull();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps';
import { setPlan } from '../../test-support/localstack-data';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../../test-support/bff';
import { CookieJar, frontendApi, registerUser, type TestUser } from '../../test-support/users';
import { verifyEmail } from '../../test-support/verify-email';

/*
 * Who may answer an invite (through the BFF, on a real local stack): the holder of the emailed link's token
 * or an account that has verified the invited address. An address typed in at registration or in the
 * settings proves nothing; an invite whose sender is no longer an owner cannot be accepted.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: TestUser;

const as = (user: TestUser) => callerFor(deps, user.cookie);
const fresh = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}@example.com`;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = await registerUser(stack.url, { name: 'Olga Owner' });
  await verifyEmail(stack.url, owner);
});
afterAll(async () => {
  await stack?.close();
});

async function teamWorkspace(name: string) {
  const workspace = await as(owner).workspaces.create({ name });
  await setPlan(stack.stack.db, { kind: 'workspace', workspaceId: workspace.id }, 'Production@0');
  return workspace.id;
}

/** Changes the account's email in its settings, as a user would (the new address is not verified). */
async function changeEmail(user: TestUser, email: string): Promise<void> {
  const api = frontendApi(stack.url);
  const jar = new CookieJar();
  const flow = await api.createBrowserSettingsFlow({ cookie: user.cookie });
  jar.store(flow.headers['set-cookie']);
  const csrf = flow.data.ui.nodes.map((n) => n.attributes as { name?: string; value?: unknown }).find((a) => a.name === 'csrf_token')?.value;
  const res = await api.updateSettingsFlow({
    flow: flow.data.id,
    cookie: [user.cookie, jar.header()].filter(Boolean).join('; '),
    updateSettingsFlowBody: { method: 'profile', csrf_token: String(csrf), traits: { email, name: 'Mallory' } },
  });
  expect(res.data.identity.traits.email).toBe(email);
}

describe('accepting an invite', () => {
  it('is refused to an account that registered the invited address without verifying it, and the invite is not listed to it', async () => {
    const workspaceId = await teamWorkspace('Registered takeover');
    const invited = fresh('new-hire');
    const { created_invite } = await as(owner).invites.create({ workspaceId, email: invited, role: 'owner' });

    const mallory = await registerUser(stack.url, { email: invited, name: 'Mallory' });
    expect(await as(mallory).invites.mine()).toEqual([]);
    const refused = await rejection(as(mallory).invites.accept({ inviteId: created_invite.id }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toMatch(/Verify your email address/);
    expect((await as(owner).members.list({ workspaceId })).map((m) => m.id)).not.toContain(mallory.identityId);

    // Once the address is verified, it is the account's own: the invite is listed and accepted.
    await verifyEmail(stack.url, mallory);
    expect((await as(mallory).invites.mine()).map((i) => i.id)).toEqual([created_invite.id]);
    expect((await as(mallory).invites.accept({ inviteId: created_invite.id })).status).toBe('accepted');
  });

  it('is refused to an account that changed its email in the settings to the invited address', async () => {
    const workspaceId = await teamWorkspace('Settings takeover');
    const invited = fresh('cfo');
    const { created_invite } = await as(owner).invites.create({ workspaceId, email: invited.toUpperCase(), role: 'owner' });

    const mallory = await registerUser(stack.url, { name: 'Mallory' });
    await verifyEmail(stack.url, mallory);
    await changeEmail(mallory, invited);
    expect(await as(mallory).invites.mine()).toEqual([]);
    expect((await rejection(as(mallory).invites.accept({ inviteId: created_invite.id }))).code).toBe('FORBIDDEN');
    expect((await as(owner).members.list({ workspaceId })).map((m) => m.id)).not.toContain(mallory.identityId);
    expect((await as(owner).invites.list({ workspaceId })).find((i) => i.id === created_invite.id)?.status).toBe('pending');
  });

  it('is allowed with the link token, or with a verified address that differs only in case', async () => {
    const workspaceId = await teamWorkspace('Rightful');
    const colleague = await registerUser(stack.url, { name: 'Carl Colleague' });
    await verifyEmail(stack.url, colleague);
    const byAddress = (await as(owner).invites.create({ workspaceId, email: colleague.email.toUpperCase(), role: 'developer' })).created_invite;
    expect((await as(colleague).invites.mine()).map((i) => i.id)).toEqual([byAddress.id]);
    expect((await as(colleague).invites.accept({ inviteId: byAddress.id })).status).toBe('accepted');

    const project = await as(owner).projects.create({ name: 'Linked', environment: 'dev', workspaceId });
    const other = fresh('personal');
    const byLink = (await as(owner).invites.create({ projectId: project.id, email: other, role: 'developer' })).created_invite;
    const mail = (await (await fetch(`${stack.url}/local/mailbox/messages?${new URLSearchParams({ to: other, project: '' })}`)).json()) as { body: string }[];
    const token = new URL(/https?:\/\/\S+/.exec(mail[0]!.body)![0]).searchParams.get('token')!;
    const holder = await registerUser(stack.url, { name: 'Link holder' });
    await as(holder).invites.link({ inviteId: byLink.id, token });
    expect((await as(holder).invites.accept({ inviteId: byLink.id })).status).toBe('accepted');
  });

  it('is refused once the owner who sent it has been removed, or is no longer an owner', async () => {
    const workspaceId = await teamWorkspace('Departed sender');
    const peer = await registerUser(stack.url, { name: 'Peer Owner' });
    await verifyEmail(stack.url, peer);
    await as(peer).invites.accept({ inviteId: (await as(owner).invites.create({ workspaceId, email: peer.email, role: 'owner' })).created_invite.id });

    const guest = await registerUser(stack.url, { name: 'Guest' });
    await verifyEmail(stack.url, guest);
    const fromPeer = (await as(peer).invites.create({ workspaceId, email: guest.email, role: 'owner' })).created_invite;
    await as(owner).members.remove({ workspaceId, memberId: peer.identityId });
    const refused = await rejection(as(guest).invites.accept({ inviteId: fromPeer.id }));
    expect(refused.code).toBe('CONFLICT');
    expect((await as(owner).members.list({ workspaceId })).map((m) => m.id)).not.toContain(guest.identityId);
    // The sender's invites no longer hold seats or show as pending.
    expect((await as(owner).invites.list({ workspaceId })).find((i) => i.id === fromPeer.id)?.status).toBe('cancelled');

    // A sender demoted to developer: their invite no longer speaks for the team either.
    await as(peer).invites.accept({ inviteId: (await as(owner).invites.create({ workspaceId, email: peer.email, role: 'owner' })).created_invite.id });
    const second = (await as(peer).invites.create({ workspaceId, email: guest.email, role: 'developer' })).created_invite;
    await as(owner).members.setRole({ workspaceId, memberId: peer.identityId, role: 'developer' });
    const demoted = await rejection(as(guest).invites.accept({ inviteId: second.id }));
    expect(demoted.code).toBe('CONFLICT');
    expect(demoted.message).toMatch(/no longer an owner/);
  });
});

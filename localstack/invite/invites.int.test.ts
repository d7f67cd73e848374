import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { createProject, expectOryError, newUser, rawCall, startTestStack, type TestUser } from '../test-support/control-plane';
import { setPlan } from '../billing/quota';
import { memberInvites } from '../project/schema';
import { verifyEmail } from '../../server/test-support/verify-email';

let stack: LocalStack;
let owner: TestUser;
let colleague: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  stack = await startTestStack({ mailbox: true });
  [owner, colleague, outsider] = await Promise.all([newUser(stack, 'Owner'), newUser(stack, 'Colleague'), newUser(stack, 'Outsider')]);
  // Invites sent to an address are answered by an account that has verified it.
  await verifyEmail(stack.url, colleague);
});
afterAll(async () => {
  await stack?.close();
});

interface Mail {
  recipient: string;
  subject: string;
  body: string;
}

async function latestMail(to: string): Promise<Mail> {
  const res = await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(to)}&project=`);
  const [mail] = (await res.json()) as Mail[];
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

const linkOf = (mail: Mail) => new URL(/https?:\/\/\S+/.exec(mail.body)![0]);

async function production(scope: { projectId: string } | { workspaceId: string }) {
  if ('projectId' in scope) await setPlan(stack.db, { kind: 'project', project: { id: scope.projectId, workspace_id: null } }, 'Production@0');
  else await setPlan(stack.db, { kind: 'workspace', workspaceId: scope.workspaceId }, 'Production@0');
}

describe('project invites', () => {
  it('on Develop (one seat, the owner’s) an invite answers quota_exceeded naming the feature', async () => {
    const project = await createProject(owner, 'Solo');
    const refused = await owner.call('POST', `/projects/${project.id}/invites`, { invitee_email: colleague.email });
    expectOryError(refused, 403, /Develop plan includes 1 team member, and it is in use \(pending invites count too\)/);
    expect(refused.body.error.id).toBe('quota_exceeded');
    expect(refused.body.error.details.feature).toBe('collaborator_seats');
    const quota = await owner.call('GET', `/quota/project/${project.id}/collaborator_seats`);
    expect(quota.body).toMatchObject({ feature: 'collaborator_seats', included: 1, used: 1, can_use_more: false, feature_available: true });
    // A feature the plan lacks reads as not available; an unknown feature key is a 400 naming it.
    expect((await owner.call('GET', `/quota/project/${project.id}/custom_domains`)).body).toMatchObject({ feature_available: false, can_use_more: false });
    expectOryError(await owner.call('GET', `/quota/project/${project.id}/moon_landings`), 400, /feature/);
    expectOryError(await outsider.call('GET', `/quota/project/${project.id}/collaborator_seats`), 403);
  });

  it('runs the whole life cycle: invite, mail with link, public view, accept as developer; refuses every later action', async () => {
    const project = await createProject(owner, 'Team project');
    await production({ projectId: project.id });

    const created = await owner.call('POST', `/projects/${project.id}/invites`, { invitee_email: colleague.email.toUpperCase() });
    expect(created.status).toBe(201);
    const invite = created.body.created_invite;
    expect(invite).toMatchObject({ invitee_email: colleague.email, role: 'developer', status: 'pending', project_id: project.id, owner_email: owner.email });
    expect(created.body.all_invites.map((i: { id: string }) => i.id)).toEqual([invite.id]);
    expect(JSON.stringify(created.body)).not.toMatch(/token/);

    // The mail links to the console's invite page with the invite and its token.
    const link = linkOf(await latestMail(colleague.email));
    expect(link.pathname).toBe('/invites');
    expect(link.searchParams.get('invite')).toBe(invite.id);
    expect(link.searchParams.get('token')).toMatch(/^[0-9a-f-]{36}$/);

    // Signed out, the invitee sees who invited them to what, with the link's token and only with it.
    const view = await rawCall(stack.url, null, 'GET', `/public/invites/${invite.id}?token=${link.searchParams.get('token')}`);
    expect(view.body).toMatchObject({ status: 'pending', target_kind: 'project', target_name: 'Team project', inviter_email: owner.email, role: 'developer' });
    const guessed = await rawCall(stack.url, null, 'GET', `/public/invites/${invite.id}?token=${crypto.randomUUID()}`);
    expectOryError(guessed, 404);
    expect(JSON.stringify(guessed.body)).not.toMatch(/Team project|@/);
    expectOryError(await rawCall(stack.url, null, 'GET', `/public/invites/${invite.id}`), 400, /token/);

    // Seats now: the owner and the pending invite.
    expect((await owner.call('GET', `/quota/project/${project.id}/collaborator_seats`)).body).toMatchObject({ included: 5, used: 2 });
    // A second pending invite to the same address is refused.
    expectOryError(await owner.call('POST', `/projects/${project.id}/invites`, { invitee_email: colleague.email }), 409, /already has a pending invite/);

    // Only the invitee may answer: anyone else is told it does not exist.
    expectOryError(await outsider.call('PUT', `/invites/${invite.id}/accept`), 404);
    expect((await colleague.call('GET', '/invites')).body).toMatchObject([{ id: invite.id, target_name: 'Team project', owner_name: expect.any(String) }]);
    expect((await outsider.call('GET', '/invites')).body).toEqual([]);

    const accepted = await colleague.call('PUT', `/invites/${invite.id}/accept`);
    expect(accepted.body.status).toBe('accepted');
    const members = await colleague.call('GET', `/projects/${project.id}/members`);
    expect(members.body.find((m: { id: string }) => m.id === colleague.id)).toMatchObject({ role: 'developer', source: 'project' });
    // A developer may read but neither invite nor delete the project.
    expectOryError(await colleague.call('POST', `/projects/${project.id}/invites`, { invitee_email: 'x@example.com' }), 403);
    expect((await colleague.call('POST', `/projects/${project.id}/access`, [{ permission: 'backoffice.project.delete' }])).body).toEqual({
      'backoffice.project.delete': false,
    });

    for (const action of ['accept', 'decline']) {
      expectOryError(await colleague.call('PUT', `/invites/${invite.id}/${action}`), 409, /already accepted/);
    }
    expectOryError(await owner.call('PUT', `/invites/${invite.id}/cancel`), 409, /already accepted/);
    expect((await colleague.call('GET', '/invites')).body).toEqual([]);
  });

  it('declines, cancels, removes and expires, each refusing what follows with 409 and its reason', async () => {
    const project = await createProject(owner, 'States');
    await production({ projectId: project.id });
    const send = async (email: string) => (await owner.call('POST', `/projects/${project.id}/invites`, { invitee_email: email })).body.created_invite;

    const declined = await send(colleague.email);
    expect((await colleague.call('PUT', `/invites/${declined.id}/decline`)).body.status).toBe('declined');
    expectOryError(await colleague.call('PUT', `/invites/${declined.id}/accept`), 409, /declined/);

    const cancelled = await send(colleague.email);
    expectOryError(await colleague.call('PUT', `/invites/${cancelled.id}/cancel`), 403);
    expect((await owner.call('PUT', `/invites/${cancelled.id}/cancel`)).body.status).toBe('cancelled');
    expectOryError(await colleague.call('PUT', `/invites/${cancelled.id}/accept`), 409, /cancelled/);

    const removed = await send(colleague.email);
    expectOryError(await outsider.call('DELETE', `/invites/${removed.id}`), 403);
    expect((await owner.call('DELETE', `/invites/${removed.id}`)).status).toBe(204);
    expectOryError(await colleague.call('PUT', `/invites/${removed.id}/accept`), 409, /removed/);
    expectOryError(await owner.call('DELETE', `/invites/${removed.id}`), 409, /removed/);
    expect((await owner.call('GET', `/projects/${project.id}/invites`)).body.map((i: { id: string }) => i.id)).not.toContain(removed.id);

    const expired = await send(colleague.email);
    await stack.db.orm.update(memberInvites).set({ expires_at: new Date(Date.now() - 1000) }).where(eq(memberInvites.id, expired.id));
    expectOryError(await colleague.call('PUT', `/invites/${expired.id}/accept`), 409, /expired/);
    const expiredToken = linkOf(await latestMail(colleague.email)).searchParams.get('token');
    expect((await rawCall(stack.url, null, 'GET', `/public/invites/${expired.id}?token=${expiredToken}`)).body.status).toBe('expired');
    // An expired invite frees its seat.
    expect((await owner.call('GET', `/quota/project/${project.id}/collaborator_seats`)).body.used).toBe(1);
  });

  it('attaches an invite to another account with the link token, then that account accepts it', async () => {
    const project = await createProject(owner, 'Linked');
    await production({ projectId: project.id });
    const invite = (await owner.call('POST', `/projects/${project.id}/invites`, { invitee_email: 'someone-else@example.com' })).body.created_invite;
    const token = linkOf(await latestMail('someone-else@example.com')).searchParams.get('token')!;

    expectOryError(await outsider.call('PUT', `/invites/${invite.id}/link`, { invite_token: crypto.randomUUID() }), 404);
    expectOryError(await outsider.call('PUT', `/invites/${invite.id}/link`, { invite_token: 'nope' }), 400, /invite_token/);
    expect((await outsider.call('PUT', `/invites/${invite.id}/link`, { invite_token: token })).body.invitee_id).toBe(outsider.id);
    expectOryError(await colleague.call('PUT', `/invites/${invite.id}/link`, { invite_token: token }), 403, /another account/);
    expect((await outsider.call('PUT', `/invites/${invite.id}/accept`)).body.status).toBe('accepted');
  });
});

describe('workspace invites and roles', () => {
  it('invites as owner, then the last-owner rule holds on role changes and removal', async () => {
    const workspace = (await owner.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Crew' } })).data;
    expectOryError(await owner.call('POST', `/workspaces/${workspace.id}/invites`, { invitee_email: colleague.email, role: 'owner' }), 403, /quota|plan/i);
    // The local stack's developer tool sets a plan without a purchase (loopback clients only).
    expectOryError(await rawCall(stack.url, null, 'PUT', '/local/plan', { workspace_id: workspace.id, plan: 'Gold@9' }), 400, /Unknown plan/);
    expectOryError(await rawCall(stack.url, null, 'PUT', '/local/plan', { workspace_id: crypto.randomUUID(), plan: 'Production@0' }), 404);
    expect((await rawCall(stack.url, null, 'PUT', '/local/plan', { workspace_id: workspace.id, plan: 'Essentials@2' })).status).toBe(204);
    expect((await owner.call('GET', `/quota/workspace/${workspace.id}/collaborator_seats`)).body).toMatchObject({ included: 5, used: 1 });
    expectOryError(await owner.call('POST', `/workspaces/${workspace.id}/invites`, { invitee_email: 'not an email', role: 'owner' }), 400, /invitee_email/);
    expectOryError(await owner.call('POST', `/workspaces/${workspace.id}/invites`, { invitee_email: colleague.email }), 400, /role/);

    const invite = (await owner.call('POST', `/workspaces/${workspace.id}/invites`, { invitee_email: colleague.email, role: 'developer' })).body.created_invite;
    expectOryError(await outsider.call('GET', `/workspaces/${workspace.id}/invites`), 403);
    await colleague.call('PUT', `/invites/${invite.id}/accept`);

    expectOryError(await colleague.call('PUT', `/workspaces/${workspace.id}/members/${owner.id}/role`, { role: 'developer' }), 403);
    expectOryError(await owner.call('PUT', `/workspaces/${workspace.id}/members/${owner.id}/role`, { role: 'developer' }), 409, /last owner/);
    expect((await owner.call('PUT', `/workspaces/${workspace.id}/members/${colleague.id}/role`, { role: 'owner' })).body).toMatchObject({ id: colleague.id, role: 'owner' });
    // With two owners, the first may step down.
    expect((await owner.call('PUT', `/workspaces/${workspace.id}/members/${owner.id}/role`, { role: 'developer' })).body.role).toBe('developer');
    expectOryError(await colleague.call('DELETE', `/workspaces/${workspace.id}/members/${colleague.id}`), 409, /last owner/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps';
import { setPlan } from '../../test-support/localstack-data';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../../test-support/bff';
import { registerUser, type TestUser } from '../../test-support/users';
import { verifyEmail } from '../../test-support/verify-email';

/* Leaving a workspace (any member but the last owner) and deleting one (owners, typed name, only when empty). */

let stack: TestStack;
let deps: AppDeps;
let owner: TestUser;
let developer: TestUser;
const as = (user: TestUser) => callerFor(deps, user.cookie);

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  [owner, developer] = await Promise.all([registerUser(stack.url, { name: 'Owner' }), registerUser(stack.url, { name: 'Developer' })]);
  await verifyEmail(stack.url, developer);
});
afterAll(async () => {
  await stack?.close();
});

describe('leaving and deleting a workspace', () => {
  it('lets a developer leave, never the last owner', async () => {
    const workspace = await as(owner).workspaces.create({ name: 'Crew' });
    await setPlan(stack.stack.db, { kind: 'workspace', workspaceId: workspace.id }, 'Production@0');
    await as(developer).invites.accept({ inviteId: (await as(owner).invites.create({ workspaceId: workspace.id, email: developer.email, role: 'developer' })).created_invite.id });

    expect(await as(developer).workspaces.leave({ workspaceId: workspace.id })).toEqual({ ok: true });
    expect((await as(owner).members.list({ workspaceId: workspace.id })).map((m) => m.id)).toEqual([owner.identityId]);
    expect((await rejection(as(developer).workspaces.get({ workspaceId: workspace.id }))).code).toBe('FORBIDDEN');
    const last = await rejection(as(owner).workspaces.leave({ workspaceId: workspace.id }));
    expect(last.code).toBe('CONFLICT');
    expect(last.message).toMatch(/last owner/);
  });

  it('deletes only for an owner who types its name, and only once it has no projects', async () => {
    const workspace = await as(owner).workspaces.create({ name: 'Short-lived' });
    await setPlan(stack.stack.db, { kind: 'workspace', workspaceId: workspace.id }, 'Production@0');
    await as(developer).invites.accept({ inviteId: (await as(owner).invites.create({ workspaceId: workspace.id, email: developer.email, role: 'developer' })).created_invite.id });
    const project = await as(owner).projects.create({ name: 'Tenant', environment: 'dev', workspaceId: workspace.id });

    expect((await rejection(as(developer).workspaces.delete({ workspaceId: workspace.id, confirmName: 'Short-lived' }))).code).toBe('FORBIDDEN');
    expect((await rejection(as(owner).workspaces.delete({ workspaceId: workspace.id, confirmName: 'Short' }))).code).toBe('BAD_REQUEST');
    const busy = await rejection(as(owner).workspaces.delete({ workspaceId: workspace.id, confirmName: 'Short-lived' }));
    expect(busy.code).toBe('CONFLICT');
    expect(busy.message).toMatch(/still has 1 project: move it to another workspace or delete it first/);

    await as(owner).projects.delete({ projectId: project.id, confirmName: 'Tenant' });
    expect(await as(owner).workspaces.delete({ workspaceId: workspace.id, confirmName: 'Short-lived' })).toEqual({ ok: true });
    expect((await as(owner).workspaces.list({})).workspaces.map((w) => w.id)).not.toContain(workspace.id);
  });
});

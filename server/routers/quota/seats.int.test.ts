import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../../test-support/bff';
import { registerUser } from '../../test-support/users';

/*
 * `collaborator_seats` are the workspace's (spec §9, shared/domain/plan-quotas.ts): the people of a
 * workspace and of the projects its plan pays for are counted once, whichever project they were invited
 * to, and two invites racing for the last seat cannot both take it (through the BFF, on a real local stack).
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;
let stranger: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [o, s] = await Promise.all([registerUser(stack.url, { name: 'Seat Owner' }), registerUser(stack.url, { name: 'Stranger' })]);
  owner = callerFor(deps, o.cookie);
  stranger = callerFor(deps, s.cookie);
});
afterAll(async () => {
  await stack?.close();
});

const errorId = (error: TRPCError) => (error.cause as { errorId?: string } | undefined)?.errorId;

describe('seats of a workspace', () => {
  it('are counted once across its projects: four projects of a Develop workspace take no extra collaborator', async () => {
    const workspace = await owner.workspaces.create({ name: 'Four projects' });
    const projects = [];
    for (let i = 0; i < 4; i++) projects.push(await owner.projects.create({ name: `Project ${i}`, environment: 'dev', workspaceId: workspace.id }));
    for (const [i, project] of projects.entries()) {
      const refused = await rejection(owner.invites.create({ projectId: project.id, email: `extra-${i}@example.com`, role: 'developer' }));
      expect(refused.code).toBe('FORBIDDEN');
      expect(errorId(refused)).toBe('quota_exceeded');
      expect(refused.message).toMatch(/Develop plan includes 1 team member/);
      // A project reads the seats of the workspace that pays for it.
      expect(await owner.quota.get({ projectId: project.id, feature: 'collaborator_seats' })).toMatchObject({ included: 1, used: 1, can_use_more: false });
    }
    expect(await owner.quota.get({ workspaceId: workspace.id, feature: 'collaborator_seats' })).toMatchObject({ included: 1, used: 1 });
    expect((await rejection(stranger.quota.get({ projectId: projects[0]!.id, feature: 'collaborator_seats' }))).code).toBe('FORBIDDEN');
  });

  it('count a person invited to two projects once, and give the last seat to one of two concurrent invites', async () => {
    const workspace = await owner.workspaces.create({ name: 'Race' });
    await owner.billing.changePlan({ workspaceId: workspace.id, plan: 'Production@0', interval: 'monthly', currency: 'usd' });
    const [first, second] = [
      await owner.projects.create({ name: 'First', environment: 'dev', workspaceId: workspace.id }),
      await owner.projects.create({ name: 'Second', environment: 'dev', workspaceId: workspace.id }),
    ];
    // The owner, one address invited to both projects, and two more: 4 of 5 seats.
    await owner.invites.create({ projectId: first.id, email: 'both@example.com', role: 'developer' });
    await owner.invites.create({ projectId: second.id, email: 'both@example.com', role: 'developer' });
    await owner.invites.create({ workspaceId: workspace.id, email: 'third@example.com', role: 'developer' });
    await owner.invites.create({ projectId: second.id, email: 'fourth@example.com', role: 'developer' });
    expect(await owner.quota.get({ workspaceId: workspace.id, feature: 'collaborator_seats' })).toMatchObject({ included: 5, used: 4 });

    const race = await Promise.allSettled([
      owner.invites.create({ projectId: first.id, email: 'racer-a@example.com', role: 'developer' }),
      owner.invites.create({ projectId: second.id, email: 'racer-b@example.com', role: 'developer' }),
    ]);
    expect(race.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const lost = race.find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason as TRPCError;
    expect(errorId(lost)).toBe('quota_exceeded');
    expect(await owner.quota.get({ workspaceId: workspace.id, feature: 'collaborator_seats' })).toMatchObject({ included: 5, used: 5, can_use_more: false });
  });
});

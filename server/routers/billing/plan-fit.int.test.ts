import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../../test-support/bff';
import { registerUser } from '../../test-support/users';

/*
 * Every path that lowers a project's plan checks that what is in use fits the plan it lands on, as a plan
 * change does (through the BFF, on a real local stack): unlinking a project's own subscription, and moving a
 * project into a workspace on a smaller plan.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;
let stranger: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [o, s] = await Promise.all([registerUser(stack.url, { name: 'Payer' }), registerUser(stack.url, { name: 'Stranger' })]);
  owner = callerFor(deps, o.cookie);
  stranger = callerFor(deps, s.cookie);
});
afterAll(async () => {
  await stack?.close();
});

const seats = (scope: { projectId: string } | { workspaceId: string }) => owner.quota.get({ ...scope, feature: 'collaborator_seats' });

/** A project on its own Production subscription with its five seats taken (pending invites count) and a production environment. */
async function fullProject(name: string, workspaceId?: string) {
  const project = await owner.projects.create({ name, environment: 'dev', ...(workspaceId ? { workspaceId } : {}) });
  await owner.billing.changePlan({ projectId: project.id, plan: 'Production@0', interval: 'monthly', currency: 'usd' });
  await owner.projects.setEnvironment({ projectId: project.id, environment: 'prod' });
  for (let i = (await seats({ projectId: project.id })).used; i < 5; i++) {
    await owner.invites.create({ projectId: project.id, email: `${name.toLowerCase()}-${i}@example.com`, role: 'developer' });
  }
  expect(await seats({ projectId: project.id })).toMatchObject({ included: 5, used: 5 });
  return project;
}

describe('lowering a plan', () => {
  it('refuses to unlink a subscription when the project would land on Develop with 5 of 1 seats and a production environment', async () => {
    const project = await fullProject('Unlinked');
    const refused = await rejection(owner.billing.unlinkProject({ projectId: project.id }));
    expect(refused.code).toBe('CONFLICT');
    expect(refused.message).toMatch(/Develop plan includes 1 team member: remove 4 members or pending invites first/);
    expect(refused.message).toMatch(/switch the project to development or staging/);
    // Nothing changed: the project keeps its subscription and its seats.
    expect((await owner.billing.getSubscription({ projectId: project.id })).subscription?.current_plan).toBe('Production@0');
    expect(await seats({ projectId: project.id })).toMatchObject({ included: 5, used: 5 });
    expect((await rejection(stranger.billing.unlinkProject({ projectId: project.id }))).code).toBe('FORBIDDEN');
  });

  it('refuses to unlink onto a workspace plan the project’s team does not fit, and unlinks once it fits', async () => {
    const workspace = await owner.workspaces.create({ name: 'Develop home' });
    const project = await fullProject('Homed', workspace.id);
    expect((await rejection(owner.billing.unlinkProject({ projectId: project.id }))).code).toBe('CONFLICT');

    for (const invite of await owner.invites.list({ projectId: project.id })) await owner.invites.remove({ inviteId: invite.id });
    await owner.projects.setEnvironment({ projectId: project.id, environment: 'dev' });
    await owner.billing.unlinkProject({ projectId: project.id });
    expect(await seats({ workspaceId: workspace.id })).toMatchObject({ included: 1, used: 1 });
  });

  it('refuses to move a project onto a workspace whose plan its team does not fit', async () => {
    const paying = await owner.workspaces.create({ name: 'Paying' });
    await owner.billing.changePlan({ workspaceId: paying.id, plan: 'Production@0', interval: 'monthly', currency: 'usd' });
    const project = await owner.projects.create({ name: 'Mover', environment: 'dev', workspaceId: paying.id });
    await owner.invites.create({ projectId: project.id, email: 'mover-colleague@example.com', role: 'developer' });
    const small = await owner.workspaces.create({ name: 'Small' });

    const refused = await rejection(owner.workspaces.addProject({ workspaceId: small.id, projectId: project.id }));
    expect(refused.code).toBe('CONFLICT');
    expect(refused.message).toMatch(/Develop plan includes 1 team member/);
    expect((await owner.workspaces.listProjects({ workspaceId: paying.id })).map((p) => p.id)).toContain(project.id);
    expect(await seats({ workspaceId: small.id })).toMatchObject({ used: 1 });
  });
});

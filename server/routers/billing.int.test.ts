import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let deps: AppDeps;
type Caller = ReturnType<typeof callerFor>;
let owner: Caller;
let developer: Caller;
let developerEmail: string;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [o, d] = await Promise.all([registerUser(stack.url, { name: 'Billing Owner' }), registerUser(stack.url, { name: 'Billing Dev' })]);
  owner = callerFor(deps, o.cookie);
  developer = callerFor(deps, d.cookie);
  developerEmail = d.email;
});
afterAll(async () => {
  await stack?.close();
});


describe('billing through the BFF', () => {
  it('lists the catalogue with display names and prices per currency', async () => {
    const plans = await owner.billing.plans();
    expect(plans.map((p) => p.name)).toEqual(['Develop', 'Production', 'Growth', 'Enterprise']);
    expect(plans.find((p) => p.id === 'Growth@0')?.prices.eur).toEqual({ monthly: 850, yearly: 9350 });
  });

  it('moves a workspace from Develop up and refuses a downgrade its members do not fit, only for owners', async () => {
    const workspace = await owner.workspaces.create({ name: 'Billed' });
    expect(await owner.billing.getSubscription({ workspaceId: workspace.id })).toEqual({ subscription: null, planId: 'Develop@0', planName: 'Develop' });

    const up = await owner.billing.changePlan({ workspaceId: workspace.id, plan: 'Production@0', interval: 'monthly', currency: 'eur' });
    expect(up).toMatchObject({ planId: 'Production@0', planName: 'Production', subscription: { current_interval: 'monthly' } });
    // The workspace names its subscription and plan, as the workspace pages read them.
    expect(await owner.workspaces.get({ workspaceId: workspace.id })).toMatchObject({ subscription_id: up.subscription!.id, subscription_plan: 'Production@0' });
    expect((await owner.workspaces.list()).workspaces.find((w) => w.id === workspace.id)).toMatchObject({ subscription_plan: 'Production@0' });

    const { created_invite } = await owner.invites.create({ workspaceId: workspace.id, email: developerEmail, role: 'developer' });
    await developer.invites.accept({ inviteId: created_invite.id });
    expect((await developer.billing.getSubscription({ workspaceId: workspace.id })).planName).toBe('Production');
    expect((await rejection(developer.billing.changePlan({ workspaceId: workspace.id, plan: 'Growth@0', interval: 'yearly', currency: 'usd' }))).code).toBe('FORBIDDEN');

    const down = await rejection(owner.billing.changePlan({ workspaceId: workspace.id, plan: 'Develop@0', interval: 'monthly', currency: 'usd' }));
    expect(down.code).toBe('CONFLICT');
    expect(down.message).toMatch(/Develop plan includes 1 team member: remove 1 member or pending invite first/);
    expect((await owner.billing.getSubscription({ workspaceId: workspace.id })).planId).toBe('Production@0');
  });

  it('says a project without a subscription has none, in the spec’s words, then subscribes and unlinks it', async () => {
    const project = await owner.projects.create({ name: 'Own billing', environment: 'dev' });
    const none = await rejection(owner.billing.getSubscription({ projectId: project.id }));
    expect(none.code).toBe('BAD_REQUEST');
    expect(none.message).toBe('Project has no subscription');

    const subscribed = await owner.billing.changePlan({ projectId: project.id, plan: 'Growth@0', interval: 'yearly', currency: 'usd' });
    expect(subscribed.subscription).toMatchObject({ current_plan: 'Growth@0', current_interval: 'yearly', currency: 'usd' });
    expect((await owner.billing.getSubscription({ projectId: project.id })).planName).toBe('Growth');
    expect(await owner.billing.unlinkProject({ projectId: project.id })).toMatchObject({ subscription: null });
    expect((await rejection(owner.billing.getSubscription({ projectId: project.id }))).message).toBe('Project has no subscription');
  });
});

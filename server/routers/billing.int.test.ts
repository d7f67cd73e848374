import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';
import { verifyEmail } from '../test-support/verify-email';

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
  await verifyEmail(stack.url, d);
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

  it('lists invoices period by period as the billing clock moves, and opens the portal for owners only', async () => {
    const workspace = await owner.workspaces.create({ name: 'Invoiced' });
    expect(await owner.billing.invoices({ workspaceId: workspace.id })).toEqual({ periods: [], nextPageToken: null });
    expect(await owner.billing.portalUrl({ workspaceId: workspace.id })).toEqual({ url: null, reason: 'no_subscription' });

    await owner.billing.changePlan({ workspaceId: workspace.id, plan: 'Production@0', interval: 'monthly', currency: 'eur' });
    const first = await owner.billing.invoices({ workspaceId: workspace.id });
    expect(first.periods).toHaveLength(1);
    expect(first.periods[0]).toMatchObject({ open: true, currency: 'eur', totalCents: 7000 });
    expect(first.periods[0]!.invoices.map((i) => [i.type, i.planName, i.status])).toEqual([
      ['base', 'Production', 'draft'],
      ['usage', 'Production', 'draft'],
    ]);

    const moved = await fetch(`${stack.url}/local/clock`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_days: 32 }) });
    expect(moved.status).toBe(200);
    const later = await owner.billing.invoices({ workspaceId: workspace.id });
    expect(later.periods.map((p) => p.open)).toEqual([true, false]);
    expect(later.periods[1]!.invoices.every((i) => i.status === 'paid')).toBe(true);

    const { created_invite } = await owner.invites.create({ workspaceId: workspace.id, email: developerEmail, role: 'developer' });
    await developer.invites.accept({ inviteId: created_invite.id });
    expect((await developer.billing.invoices({ workspaceId: workspace.id })).periods).toHaveLength(2);
    expect((await rejection(developer.billing.portalUrl({ workspaceId: workspace.id }))).code).toBe('FORBIDDEN');
    const portal = await owner.billing.portalUrl({ workspaceId: workspace.id });
    const page = await fetch(portal.url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Production');

    const loose = await owner.projects.create({ name: 'No plan', environment: 'dev' });
    expect((await rejection(owner.billing.invoices({ projectId: loose.id }))).message).toBe('Project has no subscription');
    expect((await rejection(owner.billing.invoices({ workspaceId: workspace.id, pageToken: 'bm9wZQ' }))).code).toBe('BAD_REQUEST');
  });

  it('lets the plan decide how many production projects there may be, up and down', async () => {
    const workspace = await owner.workspaces.create({ name: 'Production line' });
    const quota = () => owner.quota.get({ workspaceId: workspace.id, feature: 'production_projects' });
    expect((await rejection(owner.projects.create({ name: 'Live', environment: 'prod', workspaceId: workspace.id }))).message).toMatch(/Develop plan does not include production projects/);

    await owner.billing.changePlan({ workspaceId: workspace.id, plan: 'Production@0', interval: 'monthly', currency: 'usd' });
    await owner.projects.create({ name: 'Live', environment: 'prod', workspaceId: workspace.id });
    const second = await owner.projects.create({ name: 'Second', environment: 'dev', workspaceId: workspace.id });
    expect(await quota()).toMatchObject({ included: 1, used: 1, can_use_more: false });
    const full = await rejection(owner.projects.setEnvironment({ projectId: second.id, environment: 'prod' }));
    expect(full.code).toBe('FORBIDDEN');
    expect(full.message).toMatch(/Production plan includes 1 production project, and it is in use\. Upgrade the plan/);

    await owner.billing.changePlan({ workspaceId: workspace.id, plan: 'Growth@0', interval: 'monthly', currency: 'usd' });
    await owner.projects.setEnvironment({ projectId: second.id, environment: 'prod' });
    expect(await quota()).toMatchObject({ included: 2, used: 2, can_use_more: false });
    const down = await rejection(owner.billing.changePlan({ workspaceId: workspace.id, plan: 'Production@0', interval: 'monthly', currency: 'usd' }));
    expect(down.code).toBe('CONFLICT');
    expect(down.message).toMatch(/Production plan includes 1 production project: move 1 to development or staging first/);
    await owner.projects.setEnvironment({ projectId: second.id, environment: 'stage' });
    expect((await owner.billing.changePlan({ workspaceId: workspace.id, plan: 'Production@0', interval: 'monthly', currency: 'usd' })).planName).toBe('Production');
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { verifyEmail } from '../../server/test-support/verify-email';
import { createProject, expectOryError, newUser, rawCall, startTestStack, type TestUser } from '../test-support/control-plane';

let stack: LocalStack;
let owner: TestUser;
let colleague: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  [owner, colleague, outsider] = await Promise.all([newUser(stack, 'Payer'), newUser(stack, 'Dev'), newUser(stack, 'Stranger')]);
  await verifyEmail(stack.url, colleague);
});
afterAll(async () => {
  await stack?.close();
});

describe('subscriptions', () => {
  it('serves the catalogue to anyone, in both currencies and intervals', async () => {
    const pricing = await rawCall(stack.url, null, 'GET', '/pricing');
    expect(pricing.body.map((p: { id: string }) => p.id)).toEqual(['Develop@0', 'Production@0', 'Growth@0', 'enterprise']);
    expect(pricing.body[1].prices).toEqual({ usd: { monthly: 70, yearly: 770 }, eur: { monthly: 70, yearly: 770 } });
  });

  it('upgrades a workspace, refuses a downgrade its usage does not fit with what to remove, and keeps it from others', async () => {
    const workspace = (await owner.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Paying' } })).data;
    expectOryError(await owner.call('GET', `/workspaces/${workspace.id}/subscription`), 404, /Develop plan/);
    expectOryError(await owner.call('PUT', `/workspaces/${workspace.id}/subscription`, { plan: 'Gold@1', interval: 'monthly' }), 400, /plan/);

    const created = await owner.call('PUT', `/workspaces/${workspace.id}/subscription`, { plan: 'Production@0', interval: 'monthly' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ current_plan: 'Production@0', current_interval: 'monthly', currency: 'usd', status: 'active' });
    expect((await owner.call('GET', `/quota/workspace/${workspace.id}/collaborator_seats`)).body).toMatchObject({ included: 5 });

    // Two more seats taken: an invite accepted and one pending.
    const first = (await owner.call('POST', `/workspaces/${workspace.id}/invites`, { invitee_email: colleague.email, role: 'developer' })).body.created_invite;
    await colleague.call('PUT', `/invites/${first.id}/accept`);
    await owner.call('POST', `/workspaces/${workspace.id}/invites`, { invitee_email: 'pending@example.com', role: 'developer' });

    // A developer may not change the plan; an outsider may not even read it.
    expectOryError(await colleague.call('PUT', `/workspaces/${workspace.id}/subscription`, { plan: 'Growth@0', interval: 'yearly' }), 403);
    expectOryError(await outsider.call('GET', `/subscription/${created.body.id}`), 403);

    const refused = await owner.call('PUT', `/workspaces/${workspace.id}/subscription`, { plan: 'Develop@0', interval: 'monthly' });
    expectOryError(refused, 409, /remove 2 members or pending invites/);
    const grown = await owner.call('PUT', `/subscription/${created.body.id}`, { plan: 'Scale@1', interval: 'yearly' });
    expect(grown.body).toMatchObject({ current_plan: 'Growth@0', current_interval: 'yearly' });
    expect((await colleague.call('GET', `/subscription/${created.body.id}`)).body.current_plan).toBe('Growth@0');
  });

  it('subscribes a project, names it on the project, and unlinks it', async () => {
    const project = await createProject(owner, 'Own plan');
    expectOryError(await outsider.call('POST', '/subscription', { plan: 'Production@0', interval: 'monthly', provision_first_project: project.id }), 403);
    const created = await owner.call('POST', '/subscription', { plan: 'Production@0', interval: 'monthly', currency: 'eur', provision_first_project: project.id });
    expect(created.status).toBe(201);
    expect(created.body.currency).toBe('eur');
    const normalized = (id: string) => owner.call('GET', `/normalized/projects/${id}`);
    expect((await normalized(project.id)).body.subscription_id).toBe(created.body.id);
    expectOryError(await owner.call('POST', '/subscription', { plan: 'Growth@0', interval: 'monthly', provision_first_project: project.id }), 409, /already has a subscription/);

    expect((await owner.call('DELETE', `/projects/${project.id}/subscription`)).status).toBe(204);
    expect((await normalized(project.id)).body.subscription_id).toBeNull();
    expectOryError(await owner.call('DELETE', `/projects/${project.id}/subscription`), 400, /^Project has no subscription$/);
  });
});

import { randomBytes } from 'node:crypto';
import { Configuration, FrontendApi } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daysBetween, rateCard, usageCharge } from '../../shared/domain/invoices';
import { addProjectMember, createProject, expectOryError, newUser, rawCall, startTestStack, type TestUser } from '../test-support/control-plane';
import type { LocalStack } from '../index';

let stack: LocalStack;
let owner: TestUser;
let developer: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  stack = await startTestStack();
  [owner, developer, outsider] = await Promise.all([newUser(stack, 'Payer'), newUser(stack, 'Dev'), newUser(stack, 'Stranger')]);
});
afterAll(async () => {
  await stack?.close();
});

const PASSWORD = 'a-Long-and-unusual-passw0rd';

/** A project's identities signing up and in through its own API flows (native apps): real sign-ins. */
function projectUsers(slug: string) {
  const api = new FrontendApi(new Configuration({ basePath: `${stack.url}/project-api/${slug}` }));
  return {
    async signUp(): Promise<string> {
      const email = `user-${randomBytes(4).toString('hex')}@example.com`;
      const flow = await api.createNativeRegistrationFlow();
      await api.updateRegistrationFlow({ flow: flow.data.id, updateRegistrationFlowBody: { method: 'password', password: PASSWORD, traits: { email, name: 'User' } } });
      return email;
    },
    async signIn(email: string): Promise<void> {
      const flow = await api.createNativeLoginFlow();
      const res = await api.updateLoginFlow({ flow: flow.data.id, updateLoginFlowBody: { method: 'password', identifier: email, password: PASSWORD } });
      expect(res.data.session_token).toBeTruthy();
    },
  };
}

const advance = async (days: number) => {
  const moved = await rawCall(stack.url, null, 'PUT', '/local/clock', { advance_days: days });
  expect(moved.status).toBe(200);
  return new Date(moved.body.now);
};
const meterChecks = async (projectId: string, count: number) =>
  expect((await rawCall(stack.url, null, 'POST', '/local/usage', { project_id: projectId, metric: 'permission_checks', count })).status).toBe(204);

type Bucket = {
  billing_period: { start: string; end: string };
  base_invoices: { type: string; v1: { plan: string; total_in_cent: number; stripe_invoice_status: string; currency: string } }[];
  usage_invoice: { type: string; v1: { plan: string; total_in_cent: number; stripe_invoice_status: string; items: { title: string; quantity: number; amount_in_cent: number }[] } };
};

describe('invoices', () => {
  it('charges three periods their plan and the usage measured from sign-ins and permission checks, minus the credit', async () => {
    const project = await createProject(owner, 'Billed');
    await addProjectMember(stack, project.id, developer.id, 'developer');
    const subscribed = await owner.call('POST', '/subscription', { plan: 'Production@0', interval: 'monthly', currency: 'eur', provision_first_project: project.id });
    expect(subscribed.status).toBe(201);
    const subscription = subscribed.body.id as string;
    const users = projectUsers(project.slug);

    // Period 1: three identities sign up (three active users that day), two sign in ten days later; 5,000 checks.
    const emails = [await users.signUp(), await users.signUp(), await users.signUp()];
    await meterChecks(project.id, 5000);
    await advance(10);
    await users.signIn(emails[0]!);
    await users.signIn(emails[1]!);
    await users.signIn(emails[1]!); // the same user twice in a day is one daily active user
    // Period 2: three sign in on its first day; 400,000 checks.
    await advance(21);
    for (const email of emails) await users.signIn(email);
    await meterChecks(project.id, 400_000);
    // Period 3 (open): upgraded to Growth; one sign-in so far.
    await advance(31);
    expect((await owner.call('PUT', `/subscription/${subscription}`, { plan: 'Growth@0', interval: 'monthly' })).status).toBe(200);
    await users.signIn(emails[2]!);

    const answer = await owner.call('GET', `/subscription/${subscription}/invoices`);
    expect(answer.status).toBe(200);
    const buckets = answer.body.buckets as Bucket[];
    expect(buckets).toHaveLength(3);
    const [p3, p2, p1] = buckets as [Bucket, Bucket, Bucket];
    expect(answer.body).toMatchObject({ has_next_page: false, next_page_token: '' });
    // Periods follow each other, newest first; closed ones are paid, the open one is the estimate.
    expect(p2.billing_period.end).toBe(p3.billing_period.start);
    expect(p1.billing_period.end).toBe(p2.billing_period.start);
    expect([p1, p2, p3].map((b) => b.usage_invoice.v1.stripe_invoice_status)).toEqual(['paid', 'paid', 'draft']);
    expect([p1, p2, p3].map((b) => b.base_invoices[0]!.v1.plan)).toEqual(['Production@0', 'Production@0', 'Growth@0']);
    expect([p1, p2, p3].map((b) => b.base_invoices[0]!.v1.total_in_cent)).toEqual([7000, 7000, 85000]);
    expect(p1.base_invoices[0]!.v1.currency).toBe('eur');

    // A closed period's usage, as the spec's rates charge it over the period's days.
    const expected = (bucket: Bucket, plan: 'Production@0' | 'Growth@0', activeUserDays: number, checks: number) => {
      const days = daysBetween(new Date(bucket.billing_period.start), new Date(bucket.billing_period.end));
      return usageCharge(rateCard(plan), { activeUserDays, days, permissionChecks: checks });
    };
    const line = (bucket: Bucket, title: string) => bucket.usage_invoice.v1.items.find((i) => i.title === title)!;

    // Period 1: 3 + 2 active-user days, 5,000 checks (35 cents): all within the $21 credit.
    const c1 = expected(p1, 'Production@0', 5, 5000);
    expect(line(p1, 'Daily active users').amount_in_cent).toBe(c1.activeUsersCents);
    expect(line(p1, 'Permission checks')).toMatchObject({ quantity: 5000, amount_in_cent: 35 });
    expect(line(p1, 'Included credit').amount_in_cent).toBe(-(c1.activeUsersCents + 35));
    expect(p1.usage_invoice.v1.total_in_cent).toBe(0);
    // Period 2: 3 active-user days, 400,000 checks ($28.00): $7.00 and the users' share beyond the credit.
    const c2 = expected(p2, 'Production@0', 3, 400_000);
    expect(line(p2, 'Permission checks').amount_in_cent).toBe(2800);
    expect(line(p2, 'Included credit').amount_in_cent).toBe(-2100);
    expect(p2.usage_invoice.v1.total_in_cent).toBe(c2.totalCents);
    expect(p2.usage_invoice.v1.total_in_cent).toBe(700 + c2.activeUsersCents);
    // Period 3: at Growth's rates, one active user so far, nothing beyond the credit.
    expect(p3.usage_invoice.v1.plan).toBe('Growth@0');
    expect(p3.usage_invoice.v1.total_in_cent).toBe(0);
    expect(line(p3, 'Included credit').amount_in_cent).toBeLessThanOrEqual(0);
    console.info(
      `three-period invoices: ${[p1, p2, p3]
        .map((b) => `${b.billing_period.start.slice(0, 10)}…${b.billing_period.end.slice(0, 10)} ${b.base_invoices[0]!.v1.plan} base ${b.base_invoices[0]!.v1.total_in_cent} + usage ${b.usage_invoice.v1.total_in_cent} cents (${b.usage_invoice.v1.items.map((i) => `${i.title} ${i.amount_in_cent}`).join(', ')}) ${b.usage_invoice.v1.stripe_invoice_status}`)
        .join(' | ')}`,
    );

    // Paged newest first; a developer may read them, an outsider may not; a made-up token is a 400.
    const first = await developer.call('GET', `/subscription/${subscription}/invoices?page_size=2`);
    expect(first.body.buckets).toHaveLength(2);
    expect(first.body.has_next_page).toBe(true);
    const second = await developer.call('GET', `/subscription/${subscription}/invoices?page_size=2&page_token=${first.body.next_page_token}`);
    expect(second.body.buckets.map((b: Bucket) => b.billing_period.start)).toEqual([p1.billing_period.start]);
    expect(second.body.has_next_page).toBe(false);
    expectOryError(await outsider.call('GET', `/subscription/${subscription}/invoices`), 403);
    expectOryError(await owner.call('GET', `/subscription/${subscription}/invoices?page_token=bm90LWEtdG9rZW4`), 400, /page_token/);
    expectOryError(await owner.call('GET', `/subscription/${subscription}/invoices?page_size=1000`), 400, /page_size/);

    // The portal: for those who may change the plan, a page with the plan, the card on file and the invoices.
    expectOryError(await developer.call('GET', `/customer/portal?subscription_id=${subscription}`), 403);
    const portal = await owner.call('GET', `/customer/portal?subscription_id=${subscription}&return_to=${encodeURIComponent('/projects')}`);
    expect(portal.body).toMatchObject({ available: true, url: expect.stringMatching(/\/portal\/[A-Za-z0-9_-]+$/) });
    const html = await (await fetch(portal.body.url)).text();
    expect(html).toContain('Growth');
    expect(html).toContain('4242');
    expect(html).toContain(p1.billing_period.start.slice(0, 10));
    expect((await fetch(`${stack.url}/portal/${'x'.repeat(32)}`)).status).toBe(404);
  });

  it('offers no portal to a workspace on Develop, and one to its owner once it pays', async () => {
    const workspace = (await owner.workspaces.createWorkspace({ createWorkspaceBody: { name: 'Portal' } })).data;
    expect((await owner.call('GET', `/workspaces/${workspace.id}/customer-portal`)).body).toEqual({ available: false, reason: 'no_subscription' });
    await owner.call('PUT', `/workspaces/${workspace.id}/subscription`, { plan: 'Production@0', interval: 'yearly' });
    expect((await owner.call('GET', `/workspaces/${workspace.id}/customer-portal`)).body.available).toBe(true);
    expectOryError(await outsider.call('GET', `/workspaces/${workspace.id}/customer-portal`), 403);
  });
});

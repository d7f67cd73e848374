import { createHash, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { planAllows, planLimit } from '../../shared/domain/plan-quotas';
import { PLAN_CATALOGUE, planDisplayName, resolvePlanId } from '../../shared/domain/plans';
import type { PlanId } from '../../shared/schemas/plans';
import { projectFor, workspaceFor } from '../kernel/permissions';
import { badRequest, conflict, notFound } from '../kernel/errors';
import { planInForce, productionProjects, seatScope, seatsUsed, type Scope } from './quota';
import { projects } from '../kernel/tables';
import { subscriptions, type SubscriptionRow } from './schema';
import type { Clock } from '../kernel/clock';
import type { Queryable } from '../db/types';
import { recordPlanChange } from './history';
import { invoicePage, readInvoiceToken } from './invoices';
import { registerPortal } from './portal';
import type { LocalStackContext } from '../kernel/context';
import { route } from '../kernel/route';
import { authorizationChanged } from '../kernel/authz-cache';

/*
 * Billing of the local stack (spec §7 Billing): the plan catalogue, subscriptions of workspaces and projects,
 * invoices computed from measured usage (./invoices.ts) and the customer portal (./portal.ts). No payment is
 * taken: a subscription is active from the moment it is created. Time is the billing clock's (../clock.ts).
 */

const planId = z.string({ error: 'is required' }).max(64).refine((id) => resolvePlanId(id) !== undefined, {
  error: 'must be a plan of the catalogue: Develop@0, Production@0, Growth@0 or enterprise',
});
const interval = z.enum(['monthly', 'yearly'], { error: 'must be monthly or yearly' });
const currency = z.enum(['usd', 'eur'], { error: 'must be usd or eur' });

const createWorkspaceSubscriptionBody = z.object({ plan: planId, interval, currency: currency.optional(), return_to: z.string().max(2048).optional() });
const createProjectSubscriptionBody = createWorkspaceSubscriptionBody.extend({ provision_first_project: z.uuid({ error: 'must be the UUID of the project' }) });
const updateSubscriptionBody = z.object({ plan: planId, interval, return_to: z.string().max(2048).optional() });
const workspaceParams = z.object({ workspace: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()) });
const projectParams = z.object({ project_id: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()) });
const subscriptionParams = z.object({ subscription_id: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()) });

const periodEnd = (from: Date, every: string) => {
  const end = new Date(from);
  if (every === 'yearly') end.setUTCFullYear(end.getUTCFullYear() + 1);
  else end.setUTCMonth(end.getUTCMonth() + 1);
  return end;
};

/** The control plane's subscription object (no Stripe here: the customer id is derived, the status active). */
export function subscriptionView(row: SubscriptionRow) {
  const owner = row.workspace_id ?? row.project_id ?? row.id;
  return {
    id: row.id,
    customer_id: `cus_${createHash('sha256').update(owner).digest('hex').slice(0, 14)}`,
    status: 'active',
    current_plan: resolvePlanId(row.plan) ?? row.plan,
    current_interval: row.interval as 'monthly' | 'yearly',
    currency: row.currency as 'usd' | 'eur',
    payed_until: periodEnd(row.updated_at, row.interval).toISOString(),
    plan_changes_to: '',
    interval_changes_to: '',
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** GET /pricing: the spec §9 catalogue, prices in both currencies for both intervals (same figures). */
function pricing() {
  return PLAN_CATALOGUE.map((plan) => ({
    ...plan,
    prices: {
      usd: { monthly: plan.price, yearly: plan.priceYearly },
      eur: { monthly: plan.price, yearly: plan.priceYearly },
    },
  }));
}

async function findSubscription(q: Queryable, where: ReturnType<typeof eq>): Promise<SubscriptionRow | undefined> {
  const [row] = await q.orm.select().from(subscriptions).where(where);
  return row;
}

/**
 * What stands in the way of `scope` being on `plan`: the seats and production projects in use beyond what
 * it includes, as sentences that say what to remove. Empty when the usage fits. Every path that lowers a
 * plan asks this: a plan change, a new subscription, unlinking a project's own subscription, moving a
 * project into a workspace.
 */
export async function downgradeBlockers(q: Queryable, scope: Scope, plan: PlanId, now: Date): Promise<string[]> {
  const name = planDisplayName(plan);
  const blockers: string[] = [];
  const seats = await seatsUsed(q, await seatScope(q, scope), now);
  if (!planAllows(plan, 'collaborator_seats', seats)) {
    const limit = planLimit(plan, 'collaborator_seats');
    const over = typeof limit === 'number' ? seats - limit : seats;
    blockers.push(`The ${name} plan includes ${limit} team member${limit === 1 ? '' : 's'}: remove ${over} member${over === 1 ? '' : 's'} or pending invite${over === 1 ? '' : 's'} first.`);
  }
  const prod = await productionProjects(q, scope);
  if (prod > 0 && !planAllows(plan, 'production_projects', prod)) {
    const limit = planLimit(plan, 'production_projects');
    const allowed = typeof limit === 'number' ? limit : 0;
    blockers.push(
      scope.kind === 'project'
        ? `The ${name} plan includes no production projects: switch the project to development or staging first.`
        : `The ${name} plan includes ${allowed} production project${allowed === 1 ? '' : 's'}: move ${prod - allowed} to development or staging first.`,
    );
  }
  return blockers;
}

/** Refuses with 409 and what to remove when `scope`'s usage does not fit the plan now in force (in the route's transaction, so nothing is kept). */
export async function assertFitsPlanInForce(q: Queryable, scope: Scope, what: string, now: Date): Promise<void> {
  const plan = await planInForce(q, scope);
  const blockers = await downgradeBlockers(q, scope, plan, now);
  if (blockers.length > 0) throw conflict(`${what} would leave it on the ${planDisplayName(plan)} plan, which does not fit what is in use. ${blockers.join(' ')}`);
}

async function change(q: Queryable, clock: Clock, scope: Scope, row: SubscriptionRow, body: { plan: string; interval: string }) {
  const plan = resolvePlanId(body.plan)!;
  const now = clock.now();
  const blockers = await downgradeBlockers(q, scope, plan, now);
  if (blockers.length > 0) throw conflict(`This plan does not fit what is in use. ${blockers.join(' ')}`);
  const [updated] = await q.orm
    .update(subscriptions)
    .set({ plan, interval: body.interval, updated_at: now })
    .where(eq(subscriptions.id, row.id))
    .returning();
  await recordPlanChange(q, row.id, now, plan, body.interval);
  return subscriptionView(updated!);
}

async function create(q: Queryable, clock: Clock, scope: Scope, body: { plan: string; interval: string; currency?: string | undefined }) {
  const key = scope.kind === 'project' ? { project_id: scope.project.id } : { workspace_id: scope.workspaceId };
  const existing = await findSubscription(q, scope.kind === 'project' ? eq(subscriptions.project_id, scope.project.id) : eq(subscriptions.workspace_id, scope.workspaceId));
  if (existing) throw conflict(`This ${scope.kind} already has a subscription (${existing.id}); change its plan instead.`);
  const plan = resolvePlanId(body.plan)!;
  const now = clock.now();
  const [row] = await q.orm
    .insert(subscriptions)
    .values({ id: randomUUID(), ...key, plan, interval: body.interval, currency: body.currency ?? 'usd', created_at: now, updated_at: now })
    .returning();
  // Counted with the subscription in place (a project's own plan counts its own team), in the route's
  // transaction: a refusal keeps nothing.
  const blockers = await downgradeBlockers(q, scope, plan, now);
  if (blockers.length > 0) throw conflict(`This plan does not fit what is in use. ${blockers.join(' ')}`);
  await recordPlanChange(q, row!.id, now, plan, body.interval);
  // A project names its subscription (Project.subscription_id), as the console reads it.
  if (scope.kind === 'project') {
    await q.orm.update(projects).set({ subscription_id: row!.id, updated_at: now }).where(eq(projects.id, scope.project.id));
    authorizationChanged();
  }
  return subscriptionView(row!);
}

/** The scope a subscription belongs to, with the caller's right on it checked (`read` or `upgrade`). */
async function scopeOfSubscription(q: Queryable, caller: Parameters<typeof projectFor>[1], row: SubscriptionRow, action: 'read' | 'upgrade'): Promise<Scope> {
  if (row.project_id) {
    const { project } = await projectFor(q, caller, row.project_id, action, action !== 'read');
    return { kind: 'project', project };
  }
  await workspaceFor(q, caller, row.workspace_id!, action, action !== 'read');
  return { kind: 'workspace', workspaceId: row.workspace_id! };
}

const invoicesQuery = z.object({
  page_size: z.coerce.number({ error: 'must be a number' }).int({ error: 'must be a whole number' }).min(1, { error: 'must be at least 1' }).max(100, { error: 'must be at most 100' }).default(12),
  page_token: z.string().max(200).optional(),
});
const portalQuery = z.object({ return_to: z.string().max(2048).optional() });
const customerPortalQuery = portalQuery.extend({ subscription_id: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()) });

export function registerBillingRoutes(scope: FastifyInstance, ctx: LocalStackContext): void {
  const portal = registerPortal(scope, ctx);

  route(scope, ctx, {
    method: 'GET',
    url: '/subscription/:subscription_id/invoices',
    params: subscriptionParams,
    query: invoicesQuery,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, params, query }) => {
      const row = await findSubscription(q, eq(subscriptions.id, params.subscription_id));
      if (!row) throw notFound(`Subscription ${params.subscription_id} does not exist.`);
      await scopeOfSubscription(q, caller, row, 'read');
      const from = readInvoiceToken(query.page_token);
      if (from === 'invalid') throw badRequest('page_token: is not a page token of this list; start again from the first page.');
      return invoicePage(q, ctx.clock, row, query.page_size, from ?? 0);
    },
  });

  // Only those who may change the plan see the payment method and the invoices in full.
  route(scope, ctx, {
    method: 'GET',
    url: '/customer/portal',
    query: customerPortalQuery,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, query }) => {
      const row = await findSubscription(q, eq(subscriptions.id, query.subscription_id));
      if (!row) throw notFound(`Subscription ${query.subscription_id} does not exist.`);
      await scopeOfSubscription(q, caller, row, 'upgrade');
      return portal.linkFor(row, query.return_to);
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/workspaces/:workspace/customer-portal',
    params: workspaceParams,
    query: portalQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.upgrade',
    handler: async ({ q, workspace, query }) => portal.linkFor(await findSubscription(q, eq(subscriptions.workspace_id, workspace.id)), query.return_to),
  });

  route(scope, ctx, { method: 'GET', url: '/pricing', auth: 'public', handler: async () => pricing() });

  route(scope, ctx, {
    method: 'GET',
    url: '/workspaces/:workspace/subscription',
    params: workspaceParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.read',
    handler: async ({ q, workspace }) => {
      const row = await findSubscription(q, eq(subscriptions.workspace_id, workspace.id));
      if (!row) throw notFound(`Workspace ${workspace.id} has no subscription: it is on the Develop plan.`);
      return subscriptionView(row);
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/workspaces/:workspace/subscription',
    params: workspaceParams,
    body: createWorkspaceSubscriptionBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.upgrade',
    status: 201,
    handler: async ({ q, workspace, body }) => create(q, ctx.clock, { kind: 'workspace', workspaceId: workspace.id }, body),
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/workspaces/:workspace/subscription',
    params: workspaceParams,
    body: updateSubscriptionBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.upgrade',
    handler: async ({ q, workspace, body }) => {
      const target: Scope = { kind: 'workspace', workspaceId: workspace.id };
      const row = await findSubscription(q, eq(subscriptions.workspace_id, workspace.id));
      // Without a subscription the workspace is on Develop: changing the plan starts one.
      if (!row) return create(q, ctx.clock, target, body);
      return change(q, ctx.clock, target, row, body);
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/subscription',
    body: createProjectSubscriptionBody,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, body }) => {
      const { project } = await projectFor(q, caller, body.provision_first_project, 'upgrade', true);
      return create(q, ctx.clock, { kind: 'project', project }, body);
    },
    status: 201,
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/subscription/:subscription_id',
    params: subscriptionParams,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, params }) => {
      const row = await findSubscription(q, eq(subscriptions.id, params.subscription_id));
      if (!row) throw notFound(`Subscription ${params.subscription_id} does not exist.`);
      await scopeOfSubscription(q, caller, row, 'read');
      return subscriptionView(row);
    },
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/subscription/:subscription_id',
    params: subscriptionParams,
    body: updateSubscriptionBody,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, params, body }) => {
      const row = await findSubscription(q, eq(subscriptions.id, params.subscription_id));
      if (!row) throw notFound(`Subscription ${params.subscription_id} does not exist.`);
      return change(q, ctx.clock, await scopeOfSubscription(q, caller, row, 'upgrade'), row, body);
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/projects/:project_id/subscription',
    params: projectParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.upgrade',
    status: 204,
    handler: async ({ q, project }) => {
      const deleted = await q.orm.delete(subscriptions).where(eq(subscriptions.project_id, project.id)).returning({ id: subscriptions.id });
      if (deleted.length === 0) throw badRequest('Project has no subscription');
      await q.orm.update(projects).set({ subscription_id: null, updated_at: new Date() }).where(eq(projects.id, project.id));
      authorizationChanged();
      // Unlinked, the project falls back to its workspace's plan (its team taking that plan's seats) or to Develop.
      const fallback: Scope = project.workspace_id ? { kind: 'workspace', workspaceId: project.workspace_id } : { kind: 'project', project };
      await assertFitsPlanInForce(q, fallback, 'Unlinking the subscription', ctx.clock.now());
    },
  });
}

import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { planLimit } from '../../shared/domain/plan-quotas';
import { MONTHLY_METERED_FEATURES, quotaFeatureSchema, type QuotaUsage } from '../../shared/domain/quota';
import { resolvePlanId, planDisplayName } from '../../shared/domain/plans';
import type { PlanId } from '../../shared/schemas/plans';
import { recordPlanChange } from './history';
import type { LocalStackContext } from '../kernel/context';
import { route, type RouteContext } from '../kernel/route';
import { assertLoopback } from '../kernel/http';
import { badRequest, featureNotAvailable, forbidden, notFound, quotaExceeded } from '../kernel/errors';
import { findProjectByRef, findWorkspace } from '../kernel/records';
import { projects, workspaces, type ProjectRow } from '../kernel/tables';
import { subscriptions } from './schema';
import { activeUserDaysSql, dayOf } from './usage';
import type { Queryable } from '../kernel/queryable';
import { authorizationChanged } from '../kernel/authz-cache';

/** A project or a workspace: what a plan, a seat count or an invite belongs to. */
export type Scope = { kind: 'project'; project: Pick<ProjectRow, 'id' | 'workspace_id'> } | { kind: 'workspace'; workspaceId: string };

async function subscribedPlan(q: Queryable, where: ReturnType<typeof eq>): Promise<PlanId | undefined> {
  const [row] = await q.orm.select({ plan: subscriptions.plan }).from(subscriptions).where(where);
  return row ? resolvePlanId(row.plan) : undefined;
}

/**
 * The plan in force: a project's own subscription, else its workspace's, else Develop; a workspace's own
 * subscription, else Develop. Legacy plan ids (spec §3) are read as the plan they map to.
 */
export async function planInForce(q: Queryable, scope: Scope): Promise<PlanId> {
  if (scope.kind === 'workspace') return (await subscribedPlan(q, eq(subscriptions.workspace_id, scope.workspaceId))) ?? 'Develop@0';
  const own = await subscribedPlan(q, eq(subscriptions.project_id, scope.project.id));
  if (own) return own;
  if (scope.project.workspace_id) {
    const viaWorkspace = await subscribedPlan(q, eq(subscriptions.workspace_id, scope.project.workspace_id));
    if (viaWorkspace) return viaWorkspace;
  }
  return 'Develop@0';
}

/** Sets the plan in force (the purchase path's write; tests use it directly). */
export async function setPlan(q: Queryable, scope: Scope, plan: string, now: Date = new Date()): Promise<void> {
  const key = scope.kind === 'project' ? { project_id: scope.project.id } : { workspace_id: scope.workspaceId };
  const [row] = await q.orm
    .insert(subscriptions)
    .values({ id: randomUUID(), ...key, plan, created_at: now, updated_at: now })
    .onConflictDoUpdate({
      target: scope.kind === 'project' ? subscriptions.project_id : subscriptions.workspace_id,
      set: { plan, updated_at: now },
    })
    .returning({ id: subscriptions.id, interval: subscriptions.interval });
  await recordPlanChange(q, row!.id, now, plan, row!.interval);
  // A project names its subscription (Project.subscription_id).
  if (scope.kind === 'project') {
    await q.orm.update(projects).set({ subscription_id: row!.id }).where(eq(projects.id, scope.project.id));
    authorizationChanged();
  }
}

/**
 * The projects a workspace's plan pays for: those in it (not deleted) without a subscription of their own.
 * Written with table names, as a subquery of the counts below.
 */
const paidByWorkspace = (workspaceId: string) =>
  sql`SELECT p.id FROM projects p WHERE p.workspace_id = ${workspaceId} AND p.state <> 'deleted'
    AND NOT EXISTS (SELECT 1 FROM subscriptions s WHERE s.project_id = p.id)`;

/**
 * The scope whose `collaborator_seats` a project's team takes (spec §9: seats are the plan's, counted once
 * per workspace): its workspace's, unless it pays for its own plan or is in no workspace.
 */
export async function seatScope(q: Queryable, scope: Scope): Promise<Scope> {
  if (scope.kind === 'workspace' || !scope.project.workspace_id) return scope;
  const [own] = await q.orm.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.project_id, scope.project.id));
  return own ? scope : { kind: 'workspace', workspaceId: scope.project.workspace_id };
}

/**
 * Seats taken in a seat scope, each person once: a project's own members and pending invites; a
 * workspace's members, the direct members of the projects its plan pays for, and the pending, unexpired
 * invites to any of them (one seat per invited address).
 */
export async function seatsUsed(q: Queryable, scope: Scope, now: Date): Promise<number> {
  const pending = sql`status = 'pending' AND expires_at > ${now.toISOString()}`;
  if (scope.kind === 'workspace') {
    const n = sql<number>`(SELECT count(*)::int FROM (
        SELECT identity_id FROM workspace_members WHERE workspace_id = ${scope.workspaceId}
        UNION SELECT identity_id FROM project_members WHERE project_id IN (${paidByWorkspace(scope.workspaceId)})) people)
      + (SELECT count(DISTINCT invitee_email)::int FROM member_invites WHERE ${pending}
        AND (workspace_id = ${scope.workspaceId} OR project_id IN (${paidByWorkspace(scope.workspaceId)})))`;
    const [row] = await q.orm.select({ n }).from(workspaces).where(eq(workspaces.id, scope.workspaceId));
    return row?.n ?? 0;
  }
  const n = sql<number>`(SELECT count(DISTINCT identity_id)::int FROM project_members WHERE project_id = ${scope.project.id})
    + (SELECT count(DISTINCT invitee_email)::int FROM member_invites WHERE ${pending} AND project_id = ${scope.project.id})`;
  const [row] = await q.orm.select({ n }).from(projects).where(eq(projects.id, scope.project.id));
  return row?.n ?? 0;
}

/**
 * Production projects counted against a scope: those a workspace's plan pays for (in it, not deleted, no
 * subscription of their own), or the project itself when it is one.
 */
export async function productionProjects(q: Queryable, scope: Scope): Promise<number> {
  const where =
    scope.kind === 'workspace'
      ? and(sql`${projects.id} IN (${paidByWorkspace(scope.workspaceId)})`, eq(projects.environment, 'prod'))
      : and(eq(projects.id, scope.project.id), eq(projects.environment, 'prod'));
  const [row] = await q.orm.select({ n: sql<number>`count(*)::int` }).from(projects).where(where);
  return row?.n ?? 0;
}

/**
 * What is used of a feature: seats, projects by environment, custom domains, event streams, organizations,
 * branding themes and SAML providers as they are now; daily active users today; metered features this month. Features with
 * nothing to count (support tiers, data location, rate-limit tiers…) answer 0.
 */
async function usedOf(q: Queryable, scope: Scope, feature: string, now: Date): Promise<number> {
  if (feature === 'collaborator_seats') return seatsUsed(q, await seatScope(q, scope), now);
  if (feature === 'production_projects') return productionProjects(q, scope);
  if (feature === 'staging_projects') return projectsIn(q, scope, 'stage');
  if (feature === 'development_projects') return projectsIn(q, scope, 'dev');
  if (feature === 'custom_domains') return customDomainsUsed(q, scope);
  if (feature === 'event_streams') return eventStreamsUsed(q, scope);
  if (feature === 'organizations') return organizationsUsed(q, scope);
  if (feature === 'branding_themes') return brandingThemesUsed(q, scope);
  if (feature === 'saml_sp') return samlProvidersUsed(q, scope);
  if (feature === 'daily_active_users') return activeUsersOn(q, scope, now);
  if ((MONTHLY_METERED_FEATURES as readonly string[]).includes(feature)) return meteredThisMonth(q, scope, feature, now);
  return 0;
}

/** The projects whose use a scope's plan counts, as SQL: the project itself, or those its workspace pays for. */
const scopeProjects = (scope: Scope) => (scope.kind === 'workspace' ? paidByWorkspace(scope.workspaceId) : sql`SELECT ${scope.project.id}::uuid`);

async function scalar(q: Queryable, query: ReturnType<typeof sql>): Promise<number> {
  const [row] = await q.orm.select({ n: sql<number>`(${query})` }).from(projects).limit(1);
  return Number(row?.n ?? 0);
}

/** Staging or development projects a scope's plan pays for (not deleted). */
const projectsIn = (q: Queryable, scope: Scope, environment: 'stage' | 'dev') =>
  scalar(q, sql`SELECT count(*)::int FROM projects WHERE id IN (${scopeProjects(scope)}) AND environment = ${environment} AND state <> 'deleted'`);

/** Branding themes of a scope's projects, each project's built-in theme not counted (as the theme quota counts). */
const brandingThemesUsed = (q: Queryable, scope: Scope) =>
  scalar(
    q,
    sql`SELECT (SELECT count(*) FROM project_branding_themes t JOIN project_brandings b ON b.id = t.project_branding_id WHERE b.project_id IN (${scopeProjects(scope)}))
      - (SELECT count(*) FROM project_brandings WHERE project_id IN (${scopeProjects(scope)}))`,
  );

/** SAML providers in the current configuration of a scope's projects (not deleted). */
const samlProvidersUsed = (q: Queryable, scope: Scope) =>
  scalar(
    q,
    sql`SELECT coalesce(sum(CASE WHEN jsonb_typeof(r.services #> ${SAML_PROVIDERS_PATH}::text[]) = 'array' THEN jsonb_array_length(r.services #> ${SAML_PROVIDERS_PATH}::text[]) ELSE 0 END), 0)::int
      FROM projects p JOIN project_revisions r ON r.id = p.current_revision_id WHERE p.id IN (${scopeProjects(scope)}) AND p.state <> 'deleted'`,
  );
const SAML_PROVIDERS_PATH = '{identity,config,selfservice,methods,saml,config,providers}';

/** Distinct identities of a scope's projects that were given a session on the billing clock's day (UTC). */
const activeUsersOn = (q: Queryable, scope: Scope, now: Date) =>
  scalar(q, activeUserDaysSql(scopeProjects(scope), dayOf(now), dayOf(new Date(now.getTime() + 86_400_000))));

/** A metered feature's count over the scope's projects since the first of the month (UTC). */
const meteredThisMonth = (q: Queryable, scope: Scope, metric: string, now: Date) =>
  scalar(
    q,
    sql`SELECT coalesce(sum(count), 0)::bigint FROM usage_counters WHERE project_id IN (${scopeProjects(scope)}) AND metric = ${metric} AND day >= ${`${now.toISOString().slice(0, 7)}-01`}::date`,
  );

/** Custom domains of the projects a scope's plan pays for (a project's own, or a workspace's). */
async function customDomainsUsed(q: Queryable, scope: Scope): Promise<number> {
  const of = scope.kind === 'workspace' ? sql`project_id IN (${paidByWorkspace(scope.workspaceId)})` : sql`project_id = ${scope.project.id}`;
  const [row] = await q.orm.select({ n: sql<number>`(SELECT count(*)::int FROM custom_domains WHERE ${of})` }).from(projects).limit(1);
  return row?.n ?? 0;
}

/** Event streams of the projects a scope's plan pays for. */
async function eventStreamsUsed(q: Queryable, scope: Scope): Promise<number> {
  const of = scope.kind === 'workspace' ? sql`project_id IN (${paidByWorkspace(scope.workspaceId)})` : sql`project_id = ${scope.project.id}`;
  const [row] = await q.orm.select({ n: sql<number>`(SELECT count(*)::int FROM event_streams WHERE ${of})` }).from(projects).limit(1);
  return row?.n ?? 0;
}

/** Organizations of a project, or of the projects a workspace's plan pays for. */
async function organizationsUsed(q: Queryable, scope: Scope): Promise<number> {
  const of = scope.kind === 'workspace' ? sql`project_id IN (${paidByWorkspace(scope.workspaceId)})` : sql`project_id = ${scope.project.id}`;
  const [row] = await q.orm.select({ n: sql<number>`(SELECT count(*)::int FROM organizations WHERE ${of})` }).from(projects).limit(1);
  return row?.n ?? 0;
}

/** Units a plan includes on top of its table's number: Growth's custom domains grow by one per tenant (project) it pays for. */
async function includedExtra(q: Queryable, scope: Scope, feature: string, plan: PlanId): Promise<number> {
  if (feature !== 'custom_domains' || plan !== 'Growth@0') return 0;
  if (scope.kind === 'project') return 1;
  const [row] = await q.orm.select({ n: sql<number>`count(*)::int` }).from(projects).where(sql`${projects.id} IN (${paidByWorkspace(scope.workspaceId)})`);
  return row?.n ?? 0;
}

/**
 * The scope whose plan pays for a project being production: its own subscription when it has one, else its
 * workspace's, else the project alone (on Develop until it subscribes).
 */
async function productionScope(q: Queryable, project: Pick<ProjectRow, 'id' | 'workspace_id'>): Promise<Scope> {
  if (project.workspace_id) {
    const [own] = await q.orm.select({ id: subscriptions.id }).from(subscriptions).where(eq(subscriptions.project_id, project.id));
    if (!own) return { kind: 'workspace', workspaceId: project.workspace_id };
  }
  return { kind: 'project', project };
}

/**
 * Refuses making `project` a production project (creating it as one, switching its environment, moving it
 * into a workspace) past the plan in force: `feature_not_available` on Develop, `quota_exceeded` when the
 * plan's production projects are all in use. A project that already is one is not counted twice.
 */
export async function assertProductionRoom(
  q: Queryable,
  project: Pick<ProjectRow, 'id' | 'workspace_id'> & { environment?: string },
  now: Date,
): Promise<void> {
  if (project.environment === 'prod') return;
  const scope = await productionScope(q, project);
  // Paid for by its own subscription, a production project stays one wherever it moves.
  if (scope.kind === 'project' && (await productionProjects(q, scope)) > 0) return;
  await assertRoomFor(q, scope, 'production_projects', 'production projects', now);
}

/** The control plane's quotaUsage for a feature under the plan in force. */
export async function quotaUsage(q: Queryable, given: Scope, feature: string, now: Date): Promise<QuotaUsage> {
  // A project's custom domains count against the plan that pays for it, with its workspace's other projects.
  const scope = feature === 'custom_domains' && given.kind === 'project' ? await productionScope(q, given.project) : given;
  const plan = await planInForce(q, scope);
  const limit = planLimit(plan, feature);
  const used = await usedOf(q, scope, feature, now);
  const unlimited = limit === 'unlimited';
  const included = typeof limit === 'number' ? limit + (await includedExtra(q, scope, feature, plan)) : 0;
  return {
    feature,
    included,
    used,
    is_unlimited: unlimited,
    can_use_more: limit !== 'unavailable' && (unlimited || used < included),
    feature_available: limit !== 'unavailable',
    additional_price: '0',
  };
}

/**
 * Takes the row lock of the scope whose seats `scope` uses (its workspace, for most projects), so that two
 * invites counting the last free seat at once are answered one after the other: the second counts the
 * first one's invite and is refused. Held until the route's transaction ends.
 */
async function lockSeats(q: Queryable, scope: Scope): Promise<void> {
  const seats = await seatScope(q, scope);
  if (seats.kind === 'workspace') await q.orm.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, seats.workspaceId)).for('update');
  else await q.orm.select({ id: projects.id }).from(projects).where(eq(projects.id, seats.project.id)).for('update');
}

/** Takes the row lock of a project or workspace until the route's transaction ends (two writes counting the last unit go one after the other). */
async function lockScope(q: Queryable, scope: Scope): Promise<void> {
  if (scope.kind === 'workspace') await q.orm.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, scope.workspaceId)).for('update');
  else await q.orm.select({ id: projects.id }).from(projects).where(eq(projects.id, scope.project.id)).for('update');
}

/**
 * Refuses one more unit of `feature` past the plan in force: `feature_not_available` when the plan lacks it,
 * `quota_exceeded` when its units are used up. Both name the feature and the plan.
 */
export async function assertRoomFor(q: Queryable, scope: Scope, feature: string, what: string, now: Date): Promise<void> {
  if (feature === 'collaborator_seats') await lockSeats(q, scope);
  if (feature === 'custom_domains' || feature === 'event_streams') await lockScope(q, scope.kind === 'project' ? await productionScope(q, scope.project) : scope);
  if (feature === 'organizations') await lockScope(q, scope);
  const usage = await quotaUsage(q, scope, feature, now);
  if (usage.can_use_more) return;
  const plan = planDisplayName(await planInForce(q, scope));
  if (!usage.feature_available) throw featureNotAvailable(feature, `The ${plan} plan does not include ${what}. Upgrade the plan to use it.`);
  throw quotaExceeded(
    feature,
    `The ${plan} plan includes ${usage.included} ${usage.included === 1 ? what.replace(/s$/, '') : what}, and ${usage.included === 1 ? 'it is' : 'all are'} in use${
      feature === 'collaborator_seats' ? ' (pending invites count too)' : ''
    }. Upgrade the plan or free one first.`,
  );
}

const quotaParamsProject = z.object({ project: z.string().regex(/^[A-Za-z0-9-]{1,100}$/, { error: "must be the project's ID or slug" }), feature: quotaFeatureSchema });
const quotaParamsWorkspace = z.object({ workspace: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()), feature: quotaFeatureSchema });

/** GET /quota/project/{project}/{feature} and /quota/workspace/{workspace}/{feature}: quotaUsage, for members. */
export function registerQuotaRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/quota/project/:project/:feature',
    params: quotaParamsProject,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    handler: async ({ q, project, params }) => quotaUsage(q, { kind: 'project', project }, params.feature, ctx.clock.now()),
  });
  route(scope, ctx, {
    method: 'GET',
    url: '/quota/workspace/:workspace/:feature',
    params: quotaParamsWorkspace,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.read',
    handler: async ({ q, workspace, params }) => quotaUsage(q, { kind: 'workspace', workspaceId: workspace.id }, params.feature, ctx.clock.now()),
  });
}

const devPlanBody = z.union([
  z.object({ workspace_id: z.uuid({ error: 'must be a UUID' }), plan: z.string().min(1).max(64) }),
  z.object({ project_id: z.uuid({ error: 'must be a UUID' }), plan: z.string().min(1).max(64) }),
]);

/**
 * PUT /local/plan {workspace_id | project_id, plan}: sets the plan in force without a purchase, for local
 * development and end-to-end tests. Served with the other developer tools (the local mailbox), to loopback
 * clients talking to the stack directly, never through the console's origin.
 */
export function registerPlanDevRoute(scope: FastifyInstance, ctx: LocalStackContext): void {
  route(scope, ctx, {
    method: 'PUT',
    url: '/local/plan',
    body: devPlanBody,
    auth: 'public',
    status: 204,
    handler: async ({ q, req, body }) => {
      try {
        assertLoopback(req);
      } catch {
        throw forbidden('The plan can be set this way only by clients on this machine.');
      }
      const plan = resolvePlanId(body.plan);
      if (!plan) throw badRequest(`Unknown plan ${body.plan}; use one of Develop@0, Production@0, Growth@0, enterprise.`);
      if ('workspace_id' in body) {
        if (!(await findWorkspace(q, body.workspace_id))) throw notFound(`Workspace ${body.workspace_id} does not exist.`);
        await setPlan(q, { kind: 'workspace', workspaceId: body.workspace_id }, plan, ctx.clock.now());
      } else {
        if (!(await findProjectByRef(q, body.project_id))) throw notFound(`Project ${body.project_id} does not exist.`);
        await setPlan(q, { kind: 'project', project: { id: body.project_id, workspace_id: null } }, plan, ctx.clock.now());
      }
    },
  });
}

import type { FastifyInstance } from 'fastify';
import { and, desc, eq, gte, like, lt, lte, or, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { auditEventDetailSchema, auditEventsPageSchema, auditLogQuery } from '../../shared/schemas/audit-log';
import { identities } from '../identity/schema';
import { badRequest, notFound } from '../kernel/errors';
import { route, type RouteContext } from '../kernel/route';
import { projectIdParams, workspaceParams } from '../project/bodies';
import type { Queryable } from '../kernel/queryable';
import { historyDays, LONGEST_HISTORY_DAYS } from '../../shared/domain/plan-quotas';
import { planInForce, type Scope } from '../billing/quota';
import { auditEvents, type AuditEventRow } from './schema';

const PAGE_SIZE = 50;
const BAD_TOKEN = 'page_token is not a token this list gave: start from the first page.';

function eventView(row: AuditEventRow, traits: unknown) {
  const email = (traits as { email?: unknown } | null)?.email;
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor: { id: row.actor_id, kind: row.actor_kind, email: typeof email === 'string' ? email : null, key_id: row.actor_key_id },
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    project_id: row.project_id,
    outcome: row.outcome,
    status: row.status,
    fields: row.fields,
    has_changes: row.before !== null || row.after !== null,
  };
}

/** An event with what its object looked like before and after the write (null before a create, after a delete). */
const withChanges = (row: AuditEventRow, traits: unknown) => ({ ...eventView(row, traits), before: row.before ?? null, after: row.after ?? null });

const eventParams = z.object({ event_id: z.uuid({ error: 'event_id must be the id of an event of this log' }) });

const DAY_MS = 24 * 60 * 60_000;

/**
 * What of a log its plan shows: the events of the plan's history (`project_metrics_events_history` days back
 * from now; a workspace's log by the workspace's plan, a project's by the plan it runs on), or all of them.
 */
async function retention(q: Queryable, plan: Scope, now: Date): Promise<{ days: number | null; since: SQL | undefined }> {
  const days = historyDays(await planInForce(q, plan));
  return { days, since: days === null ? undefined : gte(auditEvents.at, new Date(now.getTime() - days * DAY_MS)) };
}

/** One event `scope` selects, with its before and after; 404 when there is none by that id in this log. */
async function one(q: Queryable, scope: SQL, since: SQL | undefined, eventId: string) {
  const [row] = await q.orm
    .select({ event: auditEvents, traits: identities.traits })
    .from(auditEvents)
    .leftJoin(identities, eq(identities.id, auditEvents.actor_id))
    .where(and(scope, since, eq(auditEvents.id, eventId.toLowerCase())));
  if (!row) throw notFound(`This log has no event ${eventId}.`);
  return withChanges(row.event, row.traits);
}

/**
 * The audit log of a workspace (local to the stack; Ory Network publishes no such call): its events newest
 * first, filtered by actor, action (or the object part of one), project and time, for the workspace's members.
 */
type AuditQuery = z.output<typeof auditLogQuery>;

/**
 * One page of the events `scope` selects (a workspace's, or a project's) within the plan's retention, newest
 * first, with the query's filters; with `with_changes`, each event with its before and after (as one event
 * answers them).
 */
async function page(q: Queryable, scope: SQL, kept: { days: number | null; since: SQL | undefined }, query: AuditQuery) {
  const size = query.page_size ?? PAGE_SIZE;
  let after: SQL | undefined;
  if (query.page_token) {
    if (!/^[0-9a-f-]{36}$/i.test(query.page_token)) throw badRequest(BAD_TOKEN);
    const [from] = await q.orm
      .select({ id: auditEvents.id, at: auditEvents.at })
      .from(auditEvents)
      .where(and(scope, eq(auditEvents.id, query.page_token.toLowerCase())));
    if (!from) throw badRequest(BAD_TOKEN);
    after = or(lt(auditEvents.at, from.at), and(eq(auditEvents.at, from.at), lt(auditEvents.id, from.id)));
  }
  const rows = await q.orm
    .select({ event: auditEvents, traits: identities.traits })
    .from(auditEvents)
    .leftJoin(identities, eq(identities.id, auditEvents.actor_id))
    .where(
      and(
        scope,
        kept.since,
        after,
        query.actor_id ? eq(auditEvents.actor_id, query.actor_id.toLowerCase()) : undefined,
        query.action ? or(eq(auditEvents.action, query.action), like(auditEvents.action, `${query.action.replaceAll('_', '\\_')}.%`)) : undefined,
        query.project_id ? eq(auditEvents.project_id, query.project_id.toLowerCase()) : undefined,
        query.from ? gte(auditEvents.at, new Date(query.from)) : undefined,
        query.to ? lte(auditEvents.at, new Date(query.to)) : undefined,
      ),
    )
    .orderBy(desc(auditEvents.at), desc(auditEvents.id))
    .limit(size + 1);
  const shown = rows.slice(0, size);
  const view = query.with_changes === 'true' ? withChanges : eventView;
  return {
    events: shown.map((r) => view(r.event, r.traits)),
    next_page_token: rows.length > size ? shown.at(-1)!.event.id : '',
    retention_days: kept.days,
  };
}

/** Deletes the events older than every plan's history: no log shows them any more. Answers how many went. */
export async function pruneAuditLog(q: Queryable, now: Date): Promise<number> {
  const gone = await q.orm
    .delete(auditEvents)
    .where(lt(auditEvents.at, new Date(now.getTime() - LONGEST_HISTORY_DAYS * DAY_MS)))
    .returning({ id: auditEvents.id });
  return gone.length;
}

/**
 * The audit log (local to the stack; Ory Network publishes no such call): a workspace's events for its
 * members, a project's for its members (whether or not it is in a workspace), newest first, filtered by actor,
 * action (or the object part of one), project and time.
 */
export function registerAuditRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  // Hourly, by the stack's clock (a clock moved ahead prunes at the next pass).
  const timer = setInterval(() => {
    ctx.db.tx((q) => pruneAuditLog(q, ctx.clock.now())).catch((err: unknown) => scope.log.warn({ err }, 'pruning the audit log failed'));
  }, 60 * 60_000);
  timer.unref();
  scope.addHook('onClose', async () => clearInterval(timer));

  route(scope, ctx, {
    method: 'GET',
    url: '/workspaces/:workspace/audit-log',
    params: workspaceParams,
    query: auditLogQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.read',
    response: auditEventsPageSchema,
    handler: async ({ q, workspace, query }) =>
      page(q, eq(auditEvents.workspace_id, workspace.id), await retention(q, { kind: 'workspace', workspaceId: workspace.id }, ctx.clock.now()), query),
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id/audit-log',
    params: projectIdParams,
    query: auditLogQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: auditEventsPageSchema,
    handler: async ({ q, project, query }) => page(q, eq(auditEvents.project_id, project.id), await retention(q, { kind: 'project', project }, ctx.clock.now()), query),
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/workspaces/:workspace/audit-log/:event_id',
    params: workspaceParams.extend(eventParams.shape),
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.read',
    response: auditEventDetailSchema,
    handler: async ({ q, workspace, params }) =>
      one(q, eq(auditEvents.workspace_id, workspace.id), (await retention(q, { kind: 'workspace', workspaceId: workspace.id }, ctx.clock.now())).since, params.event_id),
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id/audit-log/:event_id',
    params: projectIdParams.extend(eventParams.shape),
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: auditEventDetailSchema,
    handler: async ({ q, project, params }) => one(q, eq(auditEvents.project_id, project.id), (await retention(q, { kind: 'project', project }, ctx.clock.now())).since, params.event_id),
  });
}

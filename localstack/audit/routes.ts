import type { FastifyInstance } from 'fastify';
import { and, desc, eq, gte, like, lt, lte, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { auditEventsPageSchema, auditLogQuery } from '../../shared/schemas/audit-log';
import { identities } from '../identity/schema';
import { badRequest } from '../kernel/errors';
import { route, type RouteContext } from '../kernel/route';
import { projectIdParams, workspaceParams } from '../project/bodies';
import type { Queryable } from '../kernel/queryable';
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
  };
}

/**
 * The audit log of a workspace (local to the stack; Ory Network publishes no such call): its events newest
 * first, filtered by actor, action (or the object part of one), project and time, for the workspace's members.
 */
type AuditQuery = z.output<typeof auditLogQuery>;

/** One page of the events `scope` selects (a workspace's, or a project's), newest first, with the query's filters. */
async function page(q: Queryable, scope: SQL, query: AuditQuery) {
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
  return { events: shown.map((r) => eventView(r.event, r.traits)), next_page_token: rows.length > size ? shown.at(-1)!.event.id : '' };
}

/**
 * The audit log (local to the stack; Ory Network publishes no such call): a workspace's events for its
 * members, a project's for its members (whether or not it is in a workspace), newest first, filtered by actor,
 * action (or the object part of one), project and time.
 */
export function registerAuditRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/workspaces/:workspace/audit-log',
    params: workspaceParams,
    query: auditLogQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.read',
    response: auditEventsPageSchema,
    handler: async ({ q, workspace, query }) => page(q, eq(auditEvents.workspace_id, workspace.id), query),
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id/audit-log',
    params: projectIdParams,
    query: auditLogQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: auditEventsPageSchema,
    handler: async ({ q, project, query }) => page(q, eq(auditEvents.project_id, project.id), query),
  });
}

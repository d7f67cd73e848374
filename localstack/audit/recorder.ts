import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pgErrorCode, surviveConnectionLoss } from '../db/errors';
import type { AdminCaller } from '../kernel/admin-auth';
import { maybeAdminOf } from '../kernel/admin-context';
import type { Caller } from '../kernel/caller';
import type { LocalStackContext } from '../kernel/context';
import { callerProjectRole, callerWorkspaceRole } from '../kernel/permissions';
import type { Queryable } from '../kernel/queryable';
import { authenticatedCaller } from '../kernel/route';
import { wasReplayed } from '../kernel/idempotency';
import { maybeTenantOf, PROJECT_API_PREFIX } from '../kernel/tenant';
import { memberInvites, workspaces } from '../project/schema';
import { subscriptions } from '../billing/schema';
import { findProjectByRef } from '../project/store';
import { actionFor, targetTypeOf } from './actions';
import { auditEvents } from './schema';
import { readState, stateReadFor, type StateRead } from './states';

type Surface = 'control-plane' | 'data-plane';

/** Where a write happened, resolved before its handler ran (a deleted object is gone afterwards). */
interface Place {
  action: string;
  workspaceId: string | null;
  projectId: string | null;
  /** How to read the written object, when its before/after is kept, and what it was before the write. */
  state?: { read: StateRead; prefix: string; before: unknown };
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_FIELDS = 50;
const MAX_FIELD_LENGTH = 200;

const places = new WeakMap<FastifyRequest, Place>();
/** What a write's handler said it changed, for writes whose object no read call shows (`noteChange`). */
const changes = new WeakMap<FastifyRequest, { before: unknown; after: unknown }>();

/**
 * Keeps what a write changed as its event's before/after, when no read call shows it (a set of relation
 * tuples has none): the handler says, once its transaction committed. Bound it with `listedState`.
 */
export function noteChange(req: FastifyRequest, change: { before: unknown; after: unknown }): void {
  changes.set(req, change);
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

function patternOf(req: FastifyRequest, surface: Surface): string {
  const url = req.routeOptions.url ?? '';
  return surface === 'data-plane' && url.startsWith(PROJECT_API_PREFIX) ? url.slice(PROJECT_API_PREFIX.length) : url;
}

async function projectPlace(q: Queryable, ref: string | undefined) {
  if (!ref) return undefined;
  const project = await findProjectByRef(q, ref);
  return project ? { workspaceId: project.workspace_id, projectId: project.id } : undefined;
}

async function workspacePlace(q: Queryable, id: string | undefined) {
  if (!id || !UUID.test(id)) return undefined;
  const [row] = await q.orm.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.id, id.toLowerCase()));
  return row ? { workspaceId: row.id, projectId: null } : undefined;
}

/** The workspace and project a control-plane write concerns, from its path, query or body. */
async function controlPlanePlace(q: Queryable, req: FastifyRequest): Promise<Omit<Place, 'action'> | undefined> {
  const params = record(req.params);
  const query = record(req.query);
  const body = record(req.body);
  const projectRef = str(params.project_id) ?? str(params.project) ?? str(query.project_id);
  if (projectRef) return projectPlace(q, projectRef);
  if (str(params.workspace)) return workspacePlace(q, str(params.workspace));
  const invite = str(params.invite);
  if (invite && UUID.test(invite)) {
    const [row] = await q.orm.select().from(memberInvites).where(eq(memberInvites.id, invite.toLowerCase()));
    if (row?.project_id) return projectPlace(q, row.project_id);
    return workspacePlace(q, row?.workspace_id ?? undefined);
  }
  const subscription = str(params.subscription_id);
  if (subscription && UUID.test(subscription)) {
    const [row] = await q.orm.select().from(subscriptions).where(eq(subscriptions.id, subscription.toLowerCase()));
    if (row?.project_id) return projectPlace(q, row.project_id);
    return workspacePlace(q, row?.workspace_id ?? undefined);
  }
  return workspacePlace(q, str(body.workspace_id) ?? str(body.workspace));
}

/** The names of what a write sent (an object's fields, a JSON patch's paths), never the values. */
export function fieldsOf(body: unknown): string[] {
  const names = Array.isArray(body)
    ? body.map((op) => str(record(op).path)).filter((p): p is string => p !== undefined)
    : Object.keys(record(body));
  return [...new Set(names)].slice(0, MAX_FIELDS).map((n) => n.slice(0, MAX_FIELD_LENGTH));
}

/** The answer of a successful create, read for the new object's id and workspace only. */
function answerOf(payload: unknown): Record<string, unknown> {
  if (typeof payload !== 'string' || !payload.startsWith('{') || payload.length > 1_000_000) return {};
  try {
    return record(JSON.parse(payload));
  } catch {
    return {};
  }
}

function actorOf(caller: Caller | AdminCaller) {
  switch (caller.kind) {
    case 'session':
      return { actor_id: caller.identityId, actor_kind: 'user' as const, actor_key_id: null };
    case 'member':
      return { actor_id: caller.identityId, actor_kind: 'user' as const, actor_key_id: null };
    case 'workspace-key':
      return { actor_id: caller.ownerId, actor_kind: 'workspace_api_key' as const, actor_key_id: caller.keyId };
    case 'api_key':
      return { actor_id: null, actor_kind: 'project_api_key' as const, actor_key_id: caller.keyId };
  }
}

/** Whether a refused write is one the place's members should see: the caller is one of them (anyone else learns nothing, and leaves nothing in a log not theirs). */
async function isMember(q: Queryable, caller: Caller | AdminCaller, place: Place): Promise<boolean> {
  if (caller.kind === 'api_key' || caller.kind === 'member') return true; // a project's admin API authorized them already
  if (place.projectId) return (await callerProjectRole(q, caller, { id: place.projectId, workspace_id: place.workspaceId })) !== null;
  if (place.workspaceId) return (await callerWorkspaceRole(q, caller, place.workspaceId)) !== null;
  return false;
}

function targetIdOf(req: FastifyRequest, surface: Surface, created: Record<string, unknown>, place: Place): string | null {
  const fromAnswer = req.method === 'POST' ? (str(created.id) ?? str(created.client_id)) : undefined;
  const url = patternOf(req, surface);
  const last = url.split('/').at(-1) ?? '';
  if (fromAnswer && !last.startsWith(':')) return fromAnswer;
  const params = Object.entries(record(req.params)).filter(([name]) => name !== 'slug');
  const value = params.length > 0 ? str(params.at(-1)![1]) : undefined;
  return value ?? fromAnswer ?? place.projectId ?? place.workspaceId;
}

/**
 * Records every write of `scope` in the audit log (`actions.ts` names them): who made it, on which
 * workspace and project, the fields it sent (names only: a secret's value never reaches the log), and how it
 * ended. The place is resolved before the handler runs; the row is written as the answer leaves, after the
 * write's own transaction: a write that was rolled back is recorded as a failure, and only for a caller who
 * belongs to the place. Requests refused before their caller was known (401, or a body that failed its
 * schema) are not recorded. A row that cannot be written is logged and does not fail the answer.
 */
export function useAuditLog(scope: FastifyInstance, ctx: Pick<LocalStackContext, 'db' | 'clock' | 'log'>, surface: Surface): void {
  scope.addHook('preHandler', async (req) => {
    if (!WRITES.has(req.method)) return;
    const action = actionFor(surface, req.method, patternOf(req, surface));
    if (!action) return;
    let place: Place | undefined;
    if (surface === 'data-plane') {
      const project = maybeTenantOf(req)?.project;
      if (project) place = { action, workspaceId: project.workspace_id, projectId: project.id };
    } else {
      const found = await controlPlanePlace(ctx.db, req);
      place = { action, workspaceId: found?.workspaceId ?? null, projectId: found?.projectId ?? null };
    }
    if (!place) return;
    const read = stateReadFor(surface, `${req.method} ${patternOf(req, surface)}`, place);
    if (read) {
      const slug = str(record(req.params).slug);
      const prefix = surface === 'data-plane' && slug ? PROJECT_API_PREFIX.replace(':slug', encodeURIComponent(slug)) : '';
      const before = read.get.includes('@id') ? null : await readState(scope, req, read, prefix, undefined).catch(() => null);
      place.state = { read, prefix, before };
    }
    places.set(req, place);
  });

  scope.addHook('onSend', async (req, reply, payload) => {
    const place = places.get(req);
    // A write sent again under its Idempotency-Key and answered from the first: nothing happened twice.
    if (!place || wasReplayed(req)) return payload;
    const caller = surface === 'data-plane' ? (maybeAdminOf(req)?.caller ?? authenticatedCaller(req)) : authenticatedCaller(req);
    if (!caller) return payload;
    const status = reply.statusCode;
    const ok = status < 400;
    try {
      if (!ok && !(await isMember(ctx.db, caller, place))) return payload;
      const created = ok ? answerOf(payload) : {};
      const state = ok && place.state ? place.state : undefined;
      const noted = ok ? changes.get(req) : undefined;
      const after = noted
        ? noted.after
        : state && req.method !== 'DELETE'
          ? await readState(scope, req, state.read, state.prefix, str(created.id) ?? str(created.client_id) ?? str(record(created.created_invite).id)).catch(() => null)
          : null;
      const workspaceId = place.workspaceId ?? str(created.workspace_id) ?? (place.action === 'workspace.create' ? str(created.id) : undefined) ?? null;
      const row: typeof auditEvents.$inferInsert = {
        id: randomUUID(),
        workspace_id: workspaceId,
        project_id: place.projectId ?? (place.action === 'project.create' ? (str(created.id) ?? null) : null),
        ...actorOf(caller),
        action: place.action,
        target_type: targetTypeOf(place.action),
        target_id: targetIdOf(req, surface, created, place),
        outcome: ok ? 'success' : 'failure',
        status,
        fields: fieldsOf(req.body),
        before: noted ? noted.before : (state?.before ?? null),
        after,
        request_id: req.id,
        at: ctx.clock.now(),
      };
      // The answer is on its way: a connection lost under the row's write must not lose the row (db-errors.ts).
      await surviveConnectionLoss(() => ctx.db.orm.insert(auditEvents).values(row));
    } catch (err) {
      // A write that removed its own workspace leaves nothing to attach its row to.
      if (pgErrorCode(err) !== '23503') ctx.log.error({ err: { message: (err as Error).message }, action: place.action }, 'audit event not recorded');
    }
    return payload;
  });
}

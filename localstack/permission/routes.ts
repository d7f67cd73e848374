/**
 * Ory Keto's HTTP API on each project's data plane, at `/project-api/{slug}/…`: relation tuples (list, create,
 * delete by query, patch), checks (status-mirroring and plain, batch), expansion, the namespaces of the
 * project's rules and the syntax check of a permission-language text. Answers and errors are Keto's.
 *
 * Callers authenticate as on the rest of the data plane: the project's API key (`Bearer ory_pat_…`), or a member
 * of the project signed in to the console whose role grants `backoffice.project.read` for reads (checks and
 * syntax checks included) and `backoffice.project.write` for writes. Each tuple write is one event of the
 * project's audit log, with the tuples it inserted and removed as its before/after.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import { errorBody } from '../../shared/ory-error';
import { meter } from '../billing/usage';
import { recordEvents } from '../event/record';
import type { EventAttributes } from '../../shared/domain/metrics';
import type { LocalStackContext } from '../kernel/context';
import { projectRevisions } from '../project/schema';
import { DATABASE_UNAVAILABLE, isConnectionError, surviveConnectionLoss } from '../db/errors';
import type { Queryable } from '../kernel/queryable';
import { useAdminAuthorization } from '../kernel/admin-context';
import { noteChange, useAuditLog } from '../audit/recorder';
import { listedState } from '../audit/states';
import { OryError } from '../kernel/errors';
import { PROJECT_API_PREFIX, tenantOf, useProjectTenant } from '../kernel/tenant';
import type { ProjectRow } from '../project/schema';
import { CheckNotCompletedError, DEFAULT_LIMITS, NoRelationTupleError, PermissionEngine, UnknownRelationError } from '../../shared/permissions/engine';
import type { RelationTuple } from '../../shared/permissions/model';
import { parseCached, rulesOfServices, type ProjectRules } from './rules';
import { createPageTokens } from './page-token';
import { deleteMatching, deleteTuples, insertTuples, listTuples, SqlTupleReader } from './store';
import {
  badRequest,
  expandTreeJson,
  KetoError,
  maxDepthOf,
  QUERY_KEYS,
  queryFromUrl,
  tupleFromJson,
  tupleFromUrl,
  tupleJsonOf,
  tupleUrlQuery,
  unknownNamespace,
  type RawQuery,
} from './wire';

/** Keto's page sizes for the tuple list. */
const DEFAULT_PAGE_SIZE = 100;
const MAX_PAGE_SIZE = 1000;
/** The key of the tuples a write changed in its audit event's before/after, as Keto's list names them. */
const TUPLES = 'relation_tuples';
/** Tuples one PATCH may carry. */
const MAX_PATCH_SIZE = 1000;

/** A project's services by revision: revisions never change, so what was read once stays true. */
const servicesByRevision = new LRUCache<string, { services: unknown }>({ max: 1000 });

async function rulesOf(q: Queryable, project: ProjectRow): Promise<ProjectRules> {
  const revisionId = project.current_revision_id;
  let cached = revisionId ? servicesByRevision.get(revisionId) : undefined;
  if (!cached && revisionId) {
    const [row] = await q.orm.select({ services: projectRevisions.services }).from(projectRevisions).where(eq(projectRevisions.id, revisionId));
    cached = { services: row?.services ?? {} };
    servicesByRevision.set(revisionId, cached);
  }
  return rulesOfServices(cached?.services);
}

interface PermissionRequest {
  project: ProjectRow;
}

const authorized = new WeakMap<FastifyRequest, PermissionRequest>();

function projectOf(req: FastifyRequest): ProjectRow {
  const found = authorized.get(req);
  if (!found) throw new Error(`no authorized project for ${req.method} ${req.routeOptions.url ?? ''}`);
  return found.project;
}

/** Reads, checks included (even sent as POST), need read access; tuple writes need write access. */
const READ_ROUTES = new Set(['/relation-tuples/check', '/relation-tuples/check/openapi', '/relation-tuples/batch/check', '/opl/syntax/check']);

function installErrorHandler(scope: FastifyInstance, log: Logger): void {
  scope.setErrorHandler((err: unknown, req, reply) => {
    if (err instanceof KetoError) return reply.code(err.status).send(errorBody(err.status, { ...(err.text.message ? { message: err.text.message } : {}), ...(err.text.reason ? { reason: err.text.reason } : {}) }));
    if (err instanceof OryError) return reply.code(err.status).send(err.body);
    if (err instanceof CheckNotCompletedError) {
      return reply.code(422).send(errorBody(422, { message: err.message, reason: err.reason }));
    }
    if (err instanceof UnknownRelationError) return reply.code(400).send(errorBody(400, { reason: err.reason }));
    if (err instanceof NoRelationTupleError) return reply.code(404).send(errorBody(404, { message: err.message }));
    const status = (err as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      // Fastify's own refusals (a body that is no JSON, too large, a bad content type) in Keto's JSON.
      return reply.code(status).send(errorBody(status, { message: (err as Error).message }));
    }
    if (isConnectionError(err)) {
      log.warn({ err, reqId: req.id }, 'database connection lost during a permission request');
      return reply.code(503).send(errorBody(503, { reason: DATABASE_UNAVAILABLE }));
    }
    log.error({ err, reqId: req.id }, 'permission request failed');
    return reply.code(500).send(errorBody(500));
  });
}

/**
 * Counts checks per project and writes them to the project's usage in the background (every second, and when
 * the stack closes), so a check does not wait for a write: usage and invoices see a check within a second.
 */
class CheckMeter {
  private pending = new Map<string, number>();
  private events: { nid: string; type: 'PermissionChecked'; at: Date; attributes: EventAttributes }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: LocalStackContext) {}

  count(projectId: string, n: number, checked: EventAttributes[] = []): void {
    this.pending.set(projectId, (this.pending.get(projectId) ?? 0) + n);
    const at = this.ctx.clock.now();
    for (const attributes of checked) this.events.push({ nid: projectId, type: 'PermissionChecked', at, attributes });
    this.timer ??= setTimeout(() => void this.flush(), METER_INTERVAL_MS).unref();
  }

  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    const events = this.events;
    this.pending = new Map();
    this.events = [];
    this.flushing = this.flushing.then(async () => {
      // In slices, so checks waiting for the database pass between them instead of behind one long statement.
      for (let i = 0; i < events.length; i += EVENT_SLICE) {
        try {
          await surviveConnectionLoss(() => recordEvents(this.ctx.db, events.slice(i, i + EVENT_SLICE)));
        } catch (err) {
          this.ctx.log.error({ err }, 'permission check events could not be recorded');
        }
      }
      for (const [projectId, n] of batch) {
        try {
          await surviveConnectionLoss(() => meter(this.ctx.db, this.ctx.clock, projectId, 'permission_checks', n));
        } catch (err) {
          this.ctx.log.error({ err, projectId }, 'permission checks could not be metered');
        }
      }
    });
    return this.flushing;
  }
}

const METER_INTERVAL_MS = 1000;
/** Check events written per statement. */
const EVENT_SLICE = 50;

export async function registerPermissionApi(app: FastifyInstance, ctx: LocalStackContext): Promise<void> {
  const checks = new CheckMeter(ctx);
  app.addHook('onClose', async () => checks.flush());
  await app.register(
    async (scope) => {
      installErrorHandler(scope, ctx.log);
      useProjectTenant(scope, ctx);
      scope.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => done(null, body));
      useAdminAuthorization(scope, { ctx }, (req) => {
        const path = (req.routeOptions.url ?? '').slice(PROJECT_API_PREFIX.length);
        return READ_ROUTES.has(path) || req.method === 'GET' ? 'backoffice.project.read' : 'backoffice.project.write';
      });
      useAuditLog(scope, ctx, 'data-plane');
      scope.addHook('preValidation', async (req) => {
        const project = tenantOf(req).project;
        if (!project) throw new Error('the permission API is only served on project tenants');
        authorized.set(req, { project });
      });
      registerRoutes(scope, ctx, checks);
    },
    { prefix: PROJECT_API_PREFIX },
  );
}

function rawQuery(req: FastifyRequest): RawQuery {
  return (req.query ?? {}) as RawQuery;
}

function requireNamespace(rules: ProjectRules, namespace: string | undefined): void {
  if (namespace !== undefined && !rules.namespaces.some((n) => n.name === namespace)) throw unknownNamespace(namespace);
}


/** Whether the tuple's namespace and its subject set's (if any) are the rules' own. */
function namespacesKnown(rules: ProjectRules, tuple: RelationTuple): boolean {
  const known = (name: string) => rules.namespaces.some((n) => n.name === name);
  return known(tuple.namespace) && (!tuple.subject.set || known(tuple.subject.set.namespace));
}

function pageSizeOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return DEFAULT_PAGE_SIZE;
  if (!/^\d{1,9}$/.test(raw)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  const size = Number(raw);
  return size <= 0 ? DEFAULT_PAGE_SIZE : Math.min(size, MAX_PAGE_SIZE);
}

function registerRoutes(scope: FastifyInstance, ctx: LocalStackContext, checks: CheckMeter): void {
  const pageTokens = createPageTokens();
  const openToken = (projectId: string, token: string | undefined) => {
    const after = pageTokens.open(projectId, token);
    if (after === 'invalid') throw badRequest('The page token is invalid, do not craft your own page tokens');
    return after;
  };
  const engineFor = async (project: ProjectRow) => {
    const rules = await rulesOf(ctx.db, project);
    return { rules, engine: new PermissionEngine(rules.namespaces, new SqlTupleReader(ctx.db, project.id), DEFAULT_LIMITS, rules.mode) };
  };

  /** One metered check: unknown namespaces (of the object or of a subject set) are "not allowed", as Keto answers them. */
  const check = async (project: ProjectRow, tuple: RelationTuple, maxDepth: number) => {
    const { rules, engine } = await engineFor(project);
    const allowed = namespacesKnown(rules, tuple) ? await engine.allowed(tuple, maxDepth) : false;
    checks.count(project.id, 1, [{ namespace: tuple.namespace, relation: tuple.relation, allowed: String(allowed) }]);
    return allowed;
  };

  const answerCheck = (reply: FastifyReply, allowed: boolean, mirror: boolean) => reply.code(mirror && !allowed ? 403 : 200).send({ allowed });

  scope.get('/relation-tuples', async (req) => {
    const project = projectOf(req);
    const query = rawQuery(req);
    const tupleQuery = queryFromUrl(query);
    const size = pageSizeOf(typeof query.page_size === 'string' ? query.page_size : undefined);
    const after = openToken(project.id, typeof query.page_token === 'string' ? query.page_token : undefined);
    const rules = await rulesOf(ctx.db, project);
    requireNamespace(rules, tupleQuery.namespace);
    const page = await listTuples(ctx.db, project.id, tupleQuery, size, after);
    return { relation_tuples: page.tuples.map(tupleJsonOf), next_page_token: page.next === null ? '' : pageTokens.seal(project.id, page.next) };
  });

  scope.put('/admin/relation-tuples', async (req, reply) => {
    const project = projectOf(req);
    const tuple = tupleFromJson(req.body);
    const rules = await rulesOf(ctx.db, project);
    requireNamespace(rules, tuple.namespace);
    const inserted = await ctx.db.tx((q) => insertTuples(q, project.id, [tuple], ctx.clock.now()));
    noteChange(req, { before: null, after: listedState(TUPLES, inserted.map(tupleJsonOf)) });
    const base = tenantOf(req).base;
    return reply.code(201).header('location', `${base}/relation-tuples?${tupleUrlQuery(tuple)}`).send(tupleJsonOf(tuple));
  });

  scope.delete('/admin/relation-tuples', async (req, reply) => {
    const project = projectOf(req);
    const query = rawQuery(req);
    const unknown = Object.keys(query).find((key) => !(QUERY_KEYS as readonly string[]).includes(key) && key !== 'subject');
    const reasons: string[] = [];
    if (unknown !== undefined) reasons.push(`query parameter key ${JSON.stringify(unknown)} unknown`);
    if (query.namespace === undefined) reasons.push('query parameters must specify at least one of the following: namespace');
    const body = req.body;
    if (body !== undefined && body !== null && body !== '' && !(typeof body === 'object' && Object.keys(body).length === 0)) reasons.push('body is not empty');
    if (reasons.length > 0) throw new KetoError(400, { reason: reasons.join('; ') });
    const tupleQuery = queryFromUrl(query);
    const rules = await rulesOf(ctx.db, project);
    requireNamespace(rules, tupleQuery.namespace);
    // The log keeps the first tuples removed (a page's worth at most), read in the delete's own transaction, and how many went.
    const removed = await ctx.db.tx(async (q) => {
      const { tuples } = await listTuples(q, project.id, tupleQuery, MAX_PAGE_SIZE, null);
      return { tuples, count: await deleteMatching(q, project.id, tupleQuery) };
    });
    noteChange(req, { before: listedState(TUPLES, removed.tuples.map(tupleJsonOf), removed.count), after: null });
    return reply.code(204).send();
  });

  scope.patch('/admin/relation-tuples', async (req, reply) => {
    const project = projectOf(req);
    const deltas = req.body;
    if (!Array.isArray(deltas)) throw badRequest('json: cannot unmarshal object into Go value of type []*ketoapi.PatchDelta');
    if (deltas.length > MAX_PATCH_SIZE) throw badRequest(`A patch holds at most ${MAX_PATCH_SIZE} changes; send the rest in another.`);
    const inserts: RelationTuple[] = [];
    const deletes: RelationTuple[] = [];
    for (const delta of deltas as unknown[]) {
      const d = (typeof delta === 'object' && delta !== null ? delta : {}) as { action?: unknown; relation_tuple?: unknown };
      if (d.relation_tuple === undefined || d.relation_tuple === null) throw badRequest('relation_tuple is missing');
      const tuple = tupleFromJson(d.relation_tuple);
      if (d.action === 'insert') inserts.push(tuple);
      else if (d.action === 'delete') deletes.push(tuple);
      else throw badRequest(`unknown action ${typeof d.action === 'string' ? d.action : ''}`);
    }
    const rules = await rulesOf(ctx.db, project);
    for (const tuple of [...inserts, ...deletes]) requireNamespace(rules, tuple.namespace);
    const changed = await ctx.db.tx(async (q) => ({
      inserted: await insertTuples(q, project.id, inserts, ctx.clock.now()),
      deleted: await deleteTuples(q, project.id, deletes),
    }));
    noteChange(req, { before: listedState(TUPLES, changed.deleted.map(tupleJsonOf)), after: listedState(TUPLES, changed.inserted.map(tupleJsonOf)) });
    return reply.code(204).send();
  });

  for (const [path, mirror] of [
    ['/relation-tuples/check', true],
    ['/relation-tuples/check/openapi', false],
  ] as const) {
    scope.get(path, async (req, reply) => {
      const query = rawQuery(req);
      const maxDepth = maxDepthOf(query);
      const tuple = tupleFromUrl(query);
      return answerCheck(reply, await check(projectOf(req), tuple, maxDepth), mirror);
    });
    scope.post(path, async (req, reply) => {
      const maxDepth = maxDepthOf(rawQuery(req));
      const tuple = tupleFromJson(req.body, 'could not unmarshal json: ');
      return answerCheck(reply, await check(projectOf(req), tuple, maxDepth), mirror);
    });
  }

  scope.post('/relation-tuples/batch/check', async (req) => {
    const project = projectOf(req);
    const maxDepth = maxDepthOf(rawQuery(req));
    const body = req.body as { tuples?: unknown } | null | undefined;
    if (body === null || typeof body !== 'object' || (body.tuples !== undefined && !Array.isArray(body.tuples))) {
      throw badRequest('could not unmarshal json: json: cannot unmarshal into Go value of type check.batchCheckPermissionBody');
    }
    const tuples = (body.tuples ?? []) as unknown[];
    if (tuples.length > DEFAULT_LIMITS.maxBatchCheckSize) throw badRequest(`batch exceeds max size of ${DEFAULT_LIMITS.maxBatchCheckSize}`);
    const { rules, engine } = await engineFor(project);
    const results: { allowed: boolean; error?: string }[] = [];
    for (const raw of tuples) {
      let tuple: RelationTuple;
      try {
        // As Keto maps a tuple: its namespace is looked up before its subject is read.
        const namespace = typeof raw === 'object' && raw !== null ? (raw as { namespace?: unknown }).namespace : undefined;
        if (!rules.namespaces.some((n) => n.name === namespace)) throw new KetoError(404, { message: 'The requested resource could not be found' });
        tuple = tupleFromJson(raw);
        if (!namespacesKnown(rules, tuple)) throw new KetoError(404, { message: 'The requested resource could not be found' });
      } catch (error) {
        if (!(error instanceof KetoError)) throw error;
        results.push({ allowed: false, error: error.message });
        continue;
      }
      const [result] = await engine.batchCheck([tuple], maxDepth);
      results.push(result!);
    }
    if (tuples.length > 0) checks.count(project.id, tuples.length, results.map((r) => ({ allowed: String(r.allowed) })));
    return { results };
  });

  scope.get('/relation-tuples/expand', async (req) => {
    const project = projectOf(req);
    const query = rawQuery(req);
    const maxDepth = maxDepthOf(query);
    const text = (key: string) => (typeof query[key] === 'string' ? (query[key] as string) : '');
    const { rules, engine } = await engineFor(project);
    requireNamespace(rules, text('namespace'));
    const tree = await engine.expand({ namespace: text('namespace'), object: text('object'), relation: text('relation') }, maxDepth);
    return expandTreeJson(tree);
  });

  scope.get('/namespaces', async (req) => {
    const rules = await rulesOf(ctx.db, projectOf(req));
    return { namespaces: rules.namespaces.map((n) => ({ name: n.name })) };
  });

  scope.post('/opl/syntax/check', async (req) => {
    const body = typeof req.body === 'string' ? req.body : req.body === undefined || req.body === null ? '' : JSON.stringify(req.body);
    const { errors } = parseCached(body);
    return errors.length > 0 ? { errors } : {};
  });
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { LocalStackContext } from './context';
import { API_KEY_PREFIX } from './api-key-secret';
import { authenticateApiKey, bearerToken } from './api-key-verify';
import type { Caller } from './caller';
import { unauthorized } from './errors';
import { authorizeAdmin, type AdminCaller } from './admin-auth';
import { maybeTenantOf, tenantOf, type Tenant } from './tenant';
import {
  projectFor,
  workspaceFor,
  type Permission,
  type ProjectAction,
  type ProjectPermission,
  type WorkspaceAction,
  type WorkspacePermission,
} from './permissions';
import type { Role } from './roles';
import type { ProjectRow, WorkspaceRow } from './tables';
import type { Queryable } from './queryable';
import {
  callerScope,
  claimIdempotencyKey,
  idempotencyKeyOf,
  releaseIdempotencyKey,
  replayAnswer,
  requestFingerprint,
  storeIdempotentAnswer,
} from './idempotency';

/**
 * How a route authenticates its caller, before anything else is looked at:
 * - `public`: nobody needs to be signed in;
 * - `session`: a signed-in identity (session cookie or X-Session-Token) — API keys get a 401;
 * - `session-or-workspace-key`: the same, or `Authorization: Bearer ory_wak_…` acting for its workspace;
 * - `project-key-or-member`: a project's data plane (a scope with `useProjectTenant`): `Bearer ory_pat_…` of
 *   that very project, or the console session of a member whose role grants the method's permission
 *   (reads `backoffice.project.read`, writes `backoffice.project.write`); 401 / 403 otherwise (`authorizeAdmin`).
 */
export type AuthMode = 'public' | 'session' | 'session-or-workspace-key' | 'project-key-or-member';

type CallerOf<A extends AuthMode> = A extends 'public'
  ? null
  : A extends 'session'
    ? Extract<Caller, { kind: 'session' }>
    : A extends 'project-key-or-member'
      ? AdminCaller
      : Caller;

/** A tenant whose project is resolved: every route of a project's data plane has one. */
export type ProjectTenant = Tenant & { project: ProjectRow };

/** The tenant a route's scope resolved (`useConsoleTenant` / `useProjectTenant`); null on scopes without one. */
type TenantOf<A extends AuthMode> = A extends 'project-key-or-member' ? ProjectTenant : Tenant | null;

/** What a declared permission has loaded and checked: the project or workspace of the path, and the caller's role. */
type Granted<P> = P extends ProjectPermission
  ? { project: ProjectRow; role: Role }
  : P extends WorkspacePermission
    ? { workspace: WorkspaceRow; role: Role }
    : object;

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export type RouteInput<Params, Query, Body, A extends AuthMode, P> = {
  params: Output<Params>;
  query: Output<Query>;
  body: Output<Body>;
  caller: CallerOf<A>;
  /** The tenant of the request (its `base`, `nid`, and for a project's API the project); null where the scope resolves none. */
  tenant: TenantOf<A>;
  /** The database, or for every method but GET the route's transaction (the permission's row lock is in it). */
  q: Queryable;
  req: FastifyRequest;
  reply: FastifyReply;
} & Granted<P>;

export interface RouteSpec<
  Params extends z.ZodType | undefined,
  Query extends z.ZodType | undefined,
  Body extends z.ZodType | undefined,
  A extends AuthMode,
  P extends Permission | undefined,
> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  params?: Params;
  query?: Query;
  body?: Body;
  auth: A;
  /**
   * Checked before the handler runs, on the project of the path (`:project_id` or `:project`, an id or a
   * slug) or the workspace (`:workspace`): 404 when it does not exist, 403 when the caller may not.
   */
  permission?: P;
  /** The status of a successful answer: 200 by default; 204 sends no body. */
  status?: number;
  /**
   * Run a write in one transaction (the default for every method but GET). Routes whose writes must
   * outlive a failure of the request (attempt counters, rate limits: the identity provider's flows) say
   * `false` and write through `q`, the database, as they go.
   */
  transaction?: boolean;
  /**
   * The zod schema of a successful answer. Checked when NODE_ENV is `test` or `development` (or under
   * vitest): an answer that does not match is a 500 and a log line naming the route, so drift between a
   * route and the shared schema its clients parse shows up in tests. Not checked in production.
   */
  response?: z.ZodType;
  handler(input: RouteInput<Params, Query, Body, A, P>): Promise<unknown>;
}

export type RouteContext = Pick<LocalStackContext, 'db' | 'resolveSession' | 'clock'>;

const callers = new WeakMap<FastifyRequest, Caller | AdminCaller | null>();

/** Who a request of a `route()` was authenticated as, once its authentication ran (undefined before, or when it failed). */
export const authenticatedCaller = (req: FastifyRequest): Caller | AdminCaller | undefined => callers.get(req) ?? undefined;

/** Whether answers are checked against their route's `response` schema (development and tests only). */
export const checkResponses = (env: NodeJS.ProcessEnv = process.env): boolean =>
  env.NODE_ENV === 'test' || env.NODE_ENV === 'development' || Boolean(env.VITEST);

const KEY_PREFIXES = Object.values(API_KEY_PREFIX);

/** Resolves the caller for `mode`, or throws the 401 that says which credential is missing or wrong. */
export async function authenticate(
  ctx: RouteContext,
  req: FastifyRequest,
  mode: AuthMode,
): Promise<Caller | AdminCaller | null> {
  if (mode === 'public') return null;
  if (mode === 'project-key-or-member') {
    const project = tenantOf(req).project;
    if (!project) throw new Error(`${req.method} ${req.routeOptions.url ?? ''} is a project's route on a scope without a project tenant`);
    return authorizeAdmin(ctx.db, req, project, ctx.clock.now());
  }
  const token = bearerToken(req.headers.authorization);
  const isKey = token !== null && KEY_PREFIXES.some((prefix) => token.startsWith(prefix));
  if (isKey && mode === 'session-or-workspace-key') {
    const key = await authenticateApiKey(ctx.db, req.headers.authorization, ctx.clock.now());
    if (key?.kind === 'workspace') {
      return { kind: 'workspace-key', workspaceId: key.workspaceId, keyId: key.keyId, ownerId: key.ownerId };
    }
    if (key?.kind === 'project') {
      throw unauthorized(
        'A project API key (ory_pat_…) authorizes its project’s APIs only; the control plane takes a workspace API key (ory_wak_…) or a session.',
      );
    }
    throw unauthorized('The API key is not valid: it is unknown, deleted or expired.');
  }
  const session = await ctx.resolveSession(req);
  if (session) return { kind: 'session', identityId: session.identityId, session };
  if (isKey) throw unauthorized('This call needs a signed-in session; API keys are not accepted here.');
  throw unauthorized();
}

function pathRef(params: unknown, names: string[]): string {
  const values = params as Record<string, unknown> | undefined;
  for (const name of names) {
    const value = values?.[name];
    if (typeof value === 'string') return value;
  }
  throw new Error(`a route declaring a permission needs one of the path parameters ${names.join(', ')}`);
}

async function grant(q: Queryable, caller: Caller | AdminCaller, permission: Permission, params: unknown, lock: boolean) {
  const [, area, action] = permission.split('.') as [string, 'project' | 'workspace', string];
  if (caller.kind === 'api_key' || caller.kind === 'member') {
    throw new Error(`permission ${permission} is a control-plane check; project-key-or-member routes are authorized already`);
  }
  if (area === 'project') {
    return projectFor(q, caller, pathRef(params, ['project_id', 'project']), action as ProjectAction, lock);
  }
  return workspaceFor(q, caller, pathRef(params, ['workspace']), action as WorkspaceAction, lock);
}

/**
 * Registers one local-stack route: authentication first (401), then the zod schemas of params, query
 * and body (400 naming every bad field), then the declared permission (404/403), then the handler with
 * the typed input. Every method but GET runs in one transaction, the permission's row locked.
 *
 * ```ts
 * route(scope, ctx, {
 *   method: 'POST',
 *   url: '/projects/:project/tokens',
 *   params: projectRefParams,                 // z.object({ project: … }) → params.project: string
 *   body: createApiKeyBody,                   // → body: { name: string; expires_at?: string | null }
 *   auth: 'session-or-workspace-key',         // → caller: Caller ('session' narrows it to the session kind)
 *   permission: 'backoffice.project.owner',   // → project: ProjectRow, role: Role (404 / 403 before the handler)
 *   status: 201,
 *   handler: async ({ q, project, body, caller }) => projectApiKeyView(...),
 * });
 * ```
 * The scope needs `useZodValidation(scope)` and the control plane's error handler, which answers a
 * validation failure with Ory's 400 body (`validationFailure` in `kernel/control-plane-errors.ts`).
 */
export function route<
  Params extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Body extends z.ZodType | undefined = undefined,
  A extends AuthMode = AuthMode,
  P extends Permission | undefined = undefined,
>(scope: FastifyInstance, ctx: RouteContext, spec: RouteSpec<Params, Query, Body, A, P>): void {
  const write = spec.method !== 'GET';
  const inTransaction = spec.transaction ?? write;
  scope.route({
    method: spec.method,
    url: spec.url,
    schema: {
      ...(spec.params ? { params: spec.params } : {}),
      ...(spec.query ? { querystring: spec.query } : {}),
      ...(spec.body ? { body: spec.body } : {}),
    },
    preValidation: async (req) => {
      callers.set(req, await authenticate(ctx, req, spec.auth));
    },
    handler: async (req, reply) => {
      const caller = callers.get(req) ?? null;
      const run = async (q: Queryable) => {
        const granted = spec.permission && caller ? await grant(q, caller, spec.permission, req.params, write) : {};
        const tenant = maybeTenantOf(req) ?? null;
        const input = { params: req.params, query: req.query, body: req.body, caller, tenant, q, req, reply, ...granted };
        return spec.handler(input as RouteInput<Params, Query, Body, A, P>);
      };
      const status = spec.status ?? 200;
      const key = inTransaction ? idempotencyKeyOf(req) : null;
      const scope = key ? callerScope(caller) : null;
      if (key && scope) {
        // The key is claimed and the answer stored in the write's own transaction (`kernel/idempotency.ts`).
        const outcome = await ctx.db.tx(async (q) => {
          const stored = await claimIdempotencyKey(q, scope, key, requestFingerprint(req), ctx.clock.now());
          if (stored) return { stored };
          const result = await run(q);
          if (reply.sent) {
            await releaseIdempotencyKey(q, scope, key);
            return { result };
          }
          if (spec.response && status !== 204 && checkResponses()) checkResponse(req, spec, result);
          await storeIdempotentAnswer(q, scope, key, { status, body: status === 204 || result === undefined ? null : JSON.stringify(result) });
          return { result };
        });
        if (outcome.stored) return replayAnswer(req, reply, outcome.stored);
        if (reply.sent) return reply;
        return status === 204 ? reply.code(204).send() : reply.code(status).send(outcome.result);
      }
      const result = inTransaction ? await ctx.db.tx(run) : await run(ctx.db);
      // A handler that answered itself (a redirect, its own status or headers) is left as it answered.
      if (reply.sent) return reply;
      if (spec.response && status !== 204 && checkResponses()) checkResponse(req, spec, result);
      return status === 204 ? reply.code(204).send() : reply.code(status).send(result);
    },
  });
}

/** Throws (a 500 through the scope's error handler) when `result` does not match the route's response schema. */
function checkResponse(req: FastifyRequest, spec: { method: string; url: string; response?: z.ZodType }, result: unknown): void {
  const checked = spec.response?.safeParse(result);
  if (!checked || checked.success) return;
  const issues = checked.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
  req.log.error({ route: `${spec.method} ${spec.url}`, issues }, `answer of ${spec.method} ${spec.url} does not match its response schema`);
  throw new Error(`answer of ${spec.method} ${spec.url} does not match its response schema: ${issues}`);
}

/** Validates with the routes' zod schemas (fastify-type-provider-zod): the parsed values reach the handlers. */
export function useZodValidation(scope: FastifyInstance): void {
  scope.setValidatorCompiler(validatorCompiler);
}

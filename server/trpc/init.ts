import { createHash } from 'node:crypto';
import { TRPCError, initTRPC } from '@trpc/server';
import { ZodError, z } from 'zod';
import { uuidSchema } from '../../shared/schemas/common';
import type { ProjectPermission, WorkspacePermission } from '../../shared/schemas/permissions';
import { procedureDuration } from '../../shared/metrics';
import { findMalformedText } from '../../shared/text-input';
import { checkAccess, deniedMessage } from './access';
import type { Context } from './context';
import { toTRPCError, upstreamErrorData } from './errors';
import { projectApis } from './project-apis';

const t = initTRPC.context<Context>().create({
  errorFormatter({ shape, error }) {
    const { stack: _stack, ...data } = shape.data;
    const cause = error.cause;
    return {
      ...shape,
      data: {
        ...data,
        zodError: error.code === 'BAD_REQUEST' && cause instanceof ZodError ? z.flattenError(cause) : null,
        /** The upstream's reason, error id and details for 4xx answers (e.g. 'aal2', 'feature_not_available'). */
        ...upstreamErrorData(cause),
      },
    };
  },
});

export const router = t.router;
export const middleware = t.middleware;
export const createCallerFactory = t.createCallerFactory;

/** The one error pipeline (docs/design.md §3.3): every failure below this point leaves as a safe TRPCError. */
const errorPipeline = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (result.ok) return result;
  throw toTRPCError(result.error, ctx.log, path);
});

/** Each call's time and outcome, for the metrics port (shared/metrics.ts). */
const measured = t.middleware(async ({ next, path, type }) => {
  const stop = procedureDuration.startTimer({ procedure: path, type });
  const result = await next();
  stop({ outcome: result.ok ? 'ok' : result.error.code });
  return result;
});

/** Text the upstream cannot store (NUL, lone surrogates) is refused up front, naming the field. */
const wellFormedText = t.middleware(async ({ next, getRawInput }) => {
  const problem = findMalformedText(await getRawInput());
  if (problem) throw new TRPCError({ code: 'BAD_REQUEST', message: problem });
  return next();
});

/** What an `Idempotency-Key` header may hold: visible ASCII without spaces, as the upstream takes it. */
const IDEMPOTENCY_KEY_SHAPE = /^[\x21-\x7e]{1,200}$/;

/**
 * A mutation sent with an `Idempotency-Key` header gives each of its upstream writes a key derived from it, the
 * procedure, its input, the write's method and URL, and how many writes to that URL the procedure made before:
 * the same mutation sent again sends the same keys (a write skipped the second time, such as an access check
 * answered from the cache, shifts no other write's key), and the upstream answers each write it has already
 * done from the first time instead of doing it twice.
 */
const idempotentWrites = t.middleware(async ({ ctx, next, type, path, getRawInput }) => {
  if (type !== 'mutation' || ctx.idempotencyKey === undefined) return next();
  if (!IDEMPOTENCY_KEY_SHAPE.test(ctx.idempotencyKey)) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: 'The Idempotency-Key header must be 1 to 200 visible ASCII characters without spaces, such as a UUID.' });
  }
  const base = createHash('sha256')
    .update(`${ctx.idempotencyKey}\n${path}\n${JSON.stringify((await getRawInput()) ?? null)}`)
    .digest('hex');
  const made = new Map<string, number>();
  const idempotencyKey = (method: string, url: string) => {
    const target = `${method} ${url}`;
    const n = made.get(target) ?? 0;
    made.set(target, n + 1);
    return `${createHash('sha256').update(`${base}\n${target}`).digest('base64url')}.${n}`;
  };
  return next({ ctx: { call: { ...ctx.call, idempotencyKey } } });
});

export const publicProcedure = t.procedure.use(measured).use(errorPipeline).use(wellFormedText).use(idempotentWrites);

export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const session = await ctx.getSession();
  if (!session) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'You need to sign in to do this.' });
  return next({ ctx: { session } });
});

const workspaceRef = z.looseObject({ workspaceId: uuidSchema });
const projectRef = z.looseObject({ projectId: uuidSchema });

/** The id an access check needs, read from the raw input; a bad one is the caller's mistake (BAD_REQUEST). */
function refOf<T>(schema: z.ZodType<T>, raw: unknown): T {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new TRPCError({ code: 'BAD_REQUEST', cause: parsed.error });
  return parsed.data;
}

/**
 * The caller must hold `permission` (spec §6) on the workspace named by `input.workspaceId`; the checked
 * id is then `ctx.workspaceId`. A failed check answers FORBIDDEN before the rest of the input is read.
 */
export function workspaceProcedure(permission: WorkspacePermission) {
  return authedProcedure.use(async ({ ctx, next, getRawInput }) => {
    const { workspaceId } = refOf(workspaceRef, await getRawInput());
    const access = await checkAccess(ctx, 'workspace', workspaceId, [permission]);
    if (!access[permission]) throw new TRPCError({ code: 'FORBIDDEN', message: deniedMessage('workspace', permission) });
    return next({ ctx: { workspaceId } });
  });
}

/** The caller must hold `permission` (spec §6) on the project named by `input.projectId` (then `ctx.projectId`). */
export function projectProcedure(permission: ProjectPermission, opts: { missingIdMessage?: string } = {}) {
  return authedProcedure.use(async ({ ctx, next, getRawInput }) => {
    const projectId = projectIdOf(await getRawInput(), opts);
    await requireProject(ctx, projectId, permission);
    return next({ ctx: { projectId } });
  });
}

function projectIdOf(raw: unknown, opts: { missingIdMessage?: string }): string {
  // Some calls name the missing id in the spec's own words (spec §5).
  const given = (raw as { projectId?: unknown } | null | undefined)?.projectId;
  if (opts.missingIdMessage && (given === undefined || given === null || given === '')) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: opts.missingIdMessage });
  }
  return refOf(projectRef, raw).projectId;
}

async function requireProject(ctx: Context, projectId: string, permission: ProjectPermission): Promise<void> {
  const access = await checkAccess(ctx, 'project', projectId, [permission]);
  if (!access[permission]) throw new TRPCError({ code: 'FORBIDDEN', message: deniedMessage('project', permission) });
}

/**
 * A procedure on the project's data plane: `projectProcedure(permission)`, then `ctx.apis` holds the
 * project's `@ory/client` APIs (identity, oauth2, relationship, permission, courier; see project-apis.ts),
 * whose every call forwards the session cookie to that project's API only, ends at the request's deadline
 * and fails as UpstreamError. A caller who cannot read the project gets no APIs.
 */
export function dataPlaneProcedure(permission: ProjectPermission) {
  return authedProcedure.use(async ({ ctx, next, getRawInput }) => {
    const projectId = projectIdOf(await getRawInput(), {});
    // The slug look-up (with the caller's own cookie) runs beside the permission check instead of after
    // it: one upstream round trip less before the data-plane call. Its result is used only once the check
    // has passed; a refused caller's look-up is dropped.
    const apis = projectApis(ctx, projectId);
    apis.catch(() => undefined);
    await requireProject(ctx, projectId, permission);
    return next({ ctx: { projectId, apis: await apis } });
  });
}

/** What a team procedure needs on the project or the workspace it names (`read` … `owner`). */
export type ScopeAction = 'read' | 'write' | 'delete' | 'upgrade' | 'owner';

const scopeRef = z.looseObject({ projectId: uuidSchema.optional(), workspaceId: uuidSchema.optional() });

/**
 * For procedures that work on a project or a workspace (`{ projectId }` or `{ workspaceId }`): the caller
 * must hold `backoffice.{project|workspace}.{action}` on the one named; then `ctx.scope` says which.
 */
export function scopeProcedure(action: ScopeAction) {
  return authedProcedure.use(async ({ ctx, next, getRawInput }) => {
    const ref = scopeRef.safeParse(await getRawInput());
    const { projectId, workspaceId } = ref.success ? ref.data : {};
    if (!ref.success || (projectId === undefined) === (workspaceId === undefined)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: 'Name a project (projectId) or a workspace (workspaceId), not both.' });
    }
    const kind = projectId ? 'project' : 'workspace';
    const id = (projectId ?? workspaceId)!;
    const permission = `backoffice.${kind}.${action}`;
    const access = await checkAccess(ctx, kind, id, [permission]);
    if (!access[permission]) throw new TRPCError({ code: 'FORBIDDEN', message: deniedMessage(kind, permission) });
    const scope = kind === 'project' ? ({ kind, projectId: id } as const) : ({ kind, workspaceId: id } as const);
    return next({ ctx: { scope } });
  });
}

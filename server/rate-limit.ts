import fastifyRateLimit from '@fastify/rate-limit';
import { TRPCError } from '@trpc/server';
import { getErrorShape } from '@trpc/server/unstable-core-do-not-import';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { appRouter } from './routers/_app';
import { sessionKey } from './trpc/ttl-cache';

export interface MutationLimit {
  /** Procedure calls allowed per window (each call of a batch counts). */
  max: number;
  windowMs: number;
}

const TRPC_ROUTE = '/api/trpc/:path';

/**
 * Queries that read a whole log or project into one file (up to a hundred upstream calls each): counted
 * apart, as mutations are, so that a session cannot keep the console and its upstream busy with them.
 */
export const EXPORT_QUERIES: ReadonlySet<string> = new Set(['auditLog.export', 'projectHistory.export', 'projectHistory.exportBundle']);

/** Who a mutation is counted against: the session (hash of its cookie), or the client's address when signed out. */
export function mutationLimitKey(req: FastifyRequest): string {
  const key = sessionKey(req.headers.cookie);
  return key ? `session:${key}` : `ip:${req.ip}`;
}

function retryMessage(what: 'changes' | 'exports', seconds: number): string {
  return `Too many ${what} in a short time. Try again in ${seconds} second${seconds === 1 ? '' : 's'}.`;
}

/**
 * Limits tRPC mutations (POST /api/trpc/…) per session: every procedure call of a batch counts, queries do
 * not, except the exports (EXPORT_QUERIES), which `exports` limits on their own. Past a limit the whole
 * request answers 429 in tRPC's error shape (TOO_MANY_REQUESTS, one entry per call of a batch) with a
 * Retry-After header. Counts are kept per BFF instance, or in `redis` when given, so that several instances
 * behind one address count together (an unreachable Redis lets calls through).
 */
export async function registerMutationLimit(app: FastifyInstance, limit: MutationLimit, redis?: Redis, exports: MutationLimit = { max: 10, windowMs: 60_000 }): Promise<void> {
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: 'console:mutations:', skipOnError: true } : {}),
  });
  const check = app.createRateLimit({ max: limit.max, timeWindow: limit.windowMs, keyGenerator: mutationLimitKey });
  const checkExport = app.createRateLimit({ max: exports.max, timeWindow: exports.windowMs, keyGenerator: (req) => `export:${mutationLimitKey(req)}` });

  /** Answers 429 and resolves true when the request's counted calls go past their limit. */
  async function refuseOverLimit(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const paths = String((req.params as { path?: string }).path ?? '').split(',');
    const mutation = req.method === 'POST';
    const counted = mutation ? paths : paths.filter((path) => EXPORT_QUERIES.has(path));
    let exceeded: { ttl: number } | undefined;
    for (let i = 0; i < counted.length; i++) {
      const status = await (mutation ? check : checkExport)(req);
      if (!status.isAllowed && status.isExceeded) {
        exceeded = status;
        break;
      }
    }
    if (!exceeded) return false;
    const seconds = Math.max(1, Math.ceil(exceeded.ttl / 1000));
    req.log.warn({ calls: counted.length }, mutation ? 'mutation rate limit reached' : 'export rate limit reached');
    const error = new TRPCError({ code: 'TOO_MANY_REQUESTS', message: retryMessage(mutation ? 'changes' : 'exports', seconds) });
    const shape = (path: string) => ({
      error: getErrorShape({ config: appRouter._def._config, error, type: mutation ? 'mutation' : 'query', path, input: undefined, ctx: undefined }),
    });
    const batched = (req.query as { batch?: string }).batch !== undefined;
    reply
      .code(429)
      .header('retry-after', String(seconds))
      .send(batched ? paths.map(shape) : shape(paths[0] ?? ''));
    return true;
  }

  // Callback style, so that the queries and pages this hook does not concern pay no promise for it.
  app.addHook('preHandler', (req, reply, done) => {
    if (req.routeOptions.url !== TRPC_ROUTE) return done();
    if (req.method !== 'POST' && !(req.method === 'GET' && String((req.params as { path?: string }).path ?? '').includes('.export'))) return done();
    refuseOverLimit(req, reply).then((refused) => {
      if (!refused) done();
    }, done);
  });
}

import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { LocalStackContext } from './kernel/context';
import { validationFailure } from './kernel/control-plane-errors';
import { DATABASE_UNAVAILABLE, isConnectionError } from './db/errors';
import { useZodValidation } from './kernel/route';
import { registerMailbox } from './courier/service';
import type { IdentityDeps } from './kernel/identity-deps';
import { errorBody, OryHttpError, type ErrorBody } from './kernel/ory-error';
import { registerFlow } from './self-service/flow-routes';
import { isJsonRequest, seeOther, uiLink } from './kernel/http';
import { loginHandler } from './self-service/login';
import { schedulePurge } from './self-service/maintenance';
import { DEFAULT_HASH_OPTIONS, type HashOptions } from './identity/password';
import { createFlowLimiter, type RateLimitOptions } from './self-service/rate-limit';
import { recoveryHandler } from './self-service/recovery';
import { registerRecoveryLink } from './self-service/recovery-link';
import { registrationHandler } from './self-service/registration';
import { registerSchemaRoutes } from './identity-schema/console-schema';
import { registerSessionRoutes } from './session/routes';
import { settingsHandler } from './self-service/settings';
import { verificationHandler } from './self-service/verification';
import { selfserviceErrors } from './identity/schema';
import { maybeTenantOf, PROJECT_API_PREFIX, useConsoleTenant, useProjectTenant } from './kernel/tenant';

export interface IdentityOptions {
  flowLifespanMs?: number;
  sessionLifespanMs?: number;
  codeLifespanMs?: number;
  privilegedSessionMs?: number;
  hash?: HashOptions;
  rateLimits?: RateLimitOptions;
  /** Serve the local mailbox (every user's codes) to loopback clients. Off unless asked for. */
  mailbox?: boolean;
}

/** Maps any thrown error to Ory's errorGeneric: OryHttpError as is, framework 4xx kept, the rest 500. */
export function toErrorResponse(err: unknown, log: LocalStackContext['log']): { status: number; body: ErrorBody } {
  if (err instanceof OryHttpError) return { status: err.status, body: err.body };
  // A route schema refused the request: 400 naming each field, as the control plane words it.
  const invalid = validationFailure(err);
  if (invalid) return { status: 400, body: errorBody(400, { reason: invalid.reason }) };
  const fe = err as Partial<FastifyError>;
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) return { status, body: errorBody(status, { reason: fe.message ?? 'Bad request' }) };
  if (isConnectionError(err)) {
    log.warn({ err }, 'database connection lost during a request');
    return { status: 503, body: errorBody(503, { reason: DATABASE_UNAVAILABLE }) };
  }
  log.error({ err }, 'unhandled error in the local stack');
  return { status: 500, body: errorBody(500) };
}

/** Registers the identity provider on `app`: the console's own tenant at the root, every project's under PROJECT_API_PREFIX. */
export async function registerIdentity(app: FastifyInstance, ctx: LocalStackContext, opts: IdentityOptions = {}): Promise<void> {
  const deps: IdentityDeps = {
    ctx,
    flowLifespanMs: opts.flowLifespanMs ?? 60 * 60_000,
    sessionLifespanMs: opts.sessionLifespanMs ?? 24 * 60 * 60_000,
    codeLifespanMs: opts.codeLifespanMs ?? 15 * 60_000,
    privilegedSessionMs: opts.privilegedSessionMs ?? 15 * 60_000,
    hash: opts.hash ?? DEFAULT_HASH_OPTIONS,
  };
  await app.register(async (scope) => {
    useConsoleTenant(scope, ctx);
    await registerTenantRoutes(scope, deps, opts);
    if (opts.mailbox) registerMailbox(scope, deps);
  });
  await app.register(
    async (scope) => {
      useProjectTenant(scope, ctx);
      await registerTenantRoutes(scope, deps, opts);
    },
    { prefix: PROJECT_API_PREFIX },
  );
  schedulePurge(app, ctx);
}

/** The identity service's public API (self-service flows, sessions, schemas) of the tenant `scope` resolves. */
async function registerTenantRoutes(scope: FastifyInstance, deps: IdentityDeps, opts: IdentityOptions): Promise<void> {
  const { ctx } = deps;
  useZodValidation(scope);
  const limiter = await createFlowLimiter(scope, opts.rateLimits);
  // Browser (non-JSON) callers see errors on the tenant's error page, as with Kratos.
  scope.setErrorHandler(async (err: unknown, req: FastifyRequest, reply: FastifyReply) => {
    const { status, body } = toErrorResponse(err, ctx.log);
    const tenant = maybeTenantOf(req);
    const path = tenant?.path ?? '';
    const apiFlow = /^\/self-service\/[a-z]+\/api(?:[/?]|$)/.test(path);
    if (tenant && !isJsonRequest(req) && !apiFlow && path.startsWith('/self-service/') && status < 500) {
      if (typeof body.redirect_browser_to === 'string') return seeOther(reply, body.redirect_browser_to);
      const id = randomUUID();
      await ctx.db.orm.insert(selfserviceErrors).values({ id, nid: tenant.nid, error: body.error });
      return seeOther(reply, uiLink(tenant.uiUrl, '/error', { id }));
    }
    return reply.code(status).send(body);
  });
  for (const handler of [
    loginHandler(deps),
    registrationHandler(deps),
    settingsHandler(deps),
    recoveryHandler(deps),
    verificationHandler(deps),
  ]) {
    registerFlow(scope, deps, handler, limiter);
  }
  registerRecoveryLink(scope, deps);
  registerSessionRoutes(scope, deps);
  registerSchemaRoutes(scope, ctx);
}

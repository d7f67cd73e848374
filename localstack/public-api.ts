import { randomUUID } from 'node:crypto';
import { createFlowHooks } from './hook/flow-hooks';
import type { FastifyInstance } from 'fastify';
import type { LocalStackContext } from './kernel/context';
import { installErrorHandler, type ErrorSurface } from './kernel/errors';
import { route, useZodValidation } from './kernel/route';
import { PASSKEY_SCRIPT, PASSKEY_SCRIPT_PATH } from './self-service/passkey';
import { registerMailbox } from './courier/service';
import type { IdentityDeps } from './kernel/identity-deps';
import { flowUiLink, registerFlow } from './self-service/flow-routes';
import { identitySettings } from './kernel/identity-settings';
import { isJsonRequest, seeOther } from './kernel/http';
import { loginHandler } from './self-service/login';
import { schedulePurge } from './self-service/maintenance';
import { DEFAULT_HASH_OPTIONS, type HashOptions } from './identity/password';
import { createFlowLimiter, type RateLimitOptions } from './self-service/rate-limit';
import { recoveryHandler } from './self-service/recovery';
import { registerRecoveryLink } from './self-service/recovery-link';
import { registrationHandler } from './self-service/registration';
import { registerSchemaRoutes } from './identity-schema/console-schema';
import { registerSamlLogoutRoutes, samlLogoutHandoff } from './self-service/saml-logout';
import { registerSessionRoutes } from './session/routes';
import { hasSecondFactor } from './self-service/lookup';
import { settingsHandler } from './self-service/settings';
import { registerOidcCallback } from './self-service/oidc';
import { registerSamlRoutes } from './self-service/saml';
import { registerVerificationLink, verificationHandler } from './self-service/verification';
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

/** The public identity API answers as Kratos' does: no request id, refused fields in the reason only. */
export const PUBLIC_API_ERRORS: ErrorSurface = { name: 'public API' };

/** Registers the identity provider on `app`: the console's own tenant at the root, every project's under PROJECT_API_PREFIX. */
export async function registerIdentity(app: FastifyInstance, ctx: LocalStackContext, opts: IdentityOptions = {}): Promise<void> {
  const deps: IdentityDeps = {
    ctx,
    flowLifespanMs: opts.flowLifespanMs ?? 60 * 60_000,
    sessionLifespanMs: opts.sessionLifespanMs ?? 24 * 60 * 60_000,
    codeLifespanMs: opts.codeLifespanMs ?? 15 * 60_000,
    privilegedSessionMs: opts.privilegedSessionMs ?? 15 * 60_000,
    hash: opts.hash ?? DEFAULT_HASH_OPTIONS,
    hooks: createFlowHooks(ctx),
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
  installErrorHandler(scope, ctx.log, PUBLIC_API_ERRORS, (req, reply, { status, body }) => {
    const tenant = maybeTenantOf(req);
    const path = tenant?.path ?? '';
    const apiFlow = /^\/self-service\/[a-z]+\/api(?:[/?]|$)/.test(path);
    if (!tenant || isJsonRequest(req) || apiFlow || !path.startsWith('/self-service/') || status >= 500) return undefined;
    if (typeof body.redirect_browser_to === 'string') return seeOther(reply, body.redirect_browser_to);
    return (async () => {
      const id = randomUUID();
      await ctx.db.orm.insert(selfserviceErrors).values({ id, nid: tenant.nid, error: body.error, created_at: ctx.clock.now() });
      // The project's own error page (`selfservice.flows.error.ui_url`) when it set one.
      return seeOther(reply, flowUiLink(tenant, await identitySettings(ctx.db, tenant.nid), 'error', { id }));
    })();
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
  registerVerificationLink(scope, deps);
  registerOidcCallback(scope, deps);
  registerSamlRoutes(scope, deps);
  registerSamlLogoutRoutes(scope, deps);
  registerSessionRoutes(scope, deps, hasSecondFactor, samlLogoutHandoff(deps));
  registerSchemaRoutes(scope, ctx);
  // The browser's side of passkey sign-up and sign-in, which the flows' script node loads.
  route(scope, ctx, {
    method: 'GET',
    url: PASSKEY_SCRIPT_PATH,
    auth: 'public',
    transaction: false,
    handler: async ({ reply }) => reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(PASSKEY_SCRIPT),
  });
}

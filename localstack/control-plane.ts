import type { FastifyInstance } from 'fastify';
import type { LocalStackContext } from './kernel/context';
import { useZodValidation } from './kernel/route';
import { registerAccessRoutes } from './member/access-routes';
import { registerAccountRoutes } from './member/account-routes';
import { registerActiveProjectRoutes } from './project/active-project-routes';
import { registerAnalyticsRoutes } from './analytics/routes';
import { registerBillingDevRoutes } from './billing/dev-routes';
import { registerBillingRoutes } from './billing/routes';
import { registerApiKeyRoutes } from './api-key/routes';
import { registerBrandingRoutes } from './branding/routes';
import { registerCourierRoutes } from './courier/test-message-routes';
import { installErrorHandler, type ErrorSurface } from './kernel/errors';
import { registerInviteRoutes } from './invite/routes';
import { registerMemberRoutes } from './member/routes';
import { registerPlanDevRoute, registerQuotaRoutes } from './billing/quota';
import { registerNormalizedRoutes } from './project/normalized-routes';
import { registerProjectHistoryRoutes } from './project/history-routes';
import { registerProjectRoutes } from './project/routes';
import { registerWorkspaceRoutes } from './workspace/routes';
import { carryWorkingSessions } from './session/store';
import { registerIdentitySchemaRoutes } from './identity-schema/routes';
import { registerCustomDomainRoutes, registerLocalDnsRoutes } from './custom-domain/routes';
import { registerMetricsRoutes } from './metrics/routes';
import { registerEventStreamRoutes } from './event-stream/routes';
import { registerHookRoutes } from './hook/routes';
import { assertHooksReachable } from './hook/reachable';
import { registerOrganizationRoutes } from './organization/routes';
import { useAuditLog } from './audit/recorder';
import { registerAuditRoutes } from './audit/routes';

/** Control-plane answers carry the request's id and name each refused field; a 500 says the request failed. */
const CONTROL_PLANE_ERRORS: ErrorSurface = {
  name: 'control plane',
  requestId: true,
  fieldDetails: true,
  internalReason: 'The server could not complete the request.',
};

/**
 * The control plane of the local stack: the Projects and Workspaces calls of the backoffice, at the root
 * of the stack's URL, authenticated by the console session or a workspace API key. Every route is declared
 * with `route()` (`kernel/route.ts`); errors are Ory's errorGeneric.
 */
export async function registerControlPlane(app: FastifyInstance, ctx: LocalStackContext, opts: { devTools?: boolean } = {}): Promise<void> {
  await app.register(async (scope) => {
    installErrorHandler(scope, ctx.log, CONTROL_PLANE_ERRORS);
    useZodValidation(scope);
    useAuditLog(scope, ctx, 'control-plane');
    registerProjectRoutes(scope, ctx, assertHooksReachable);
    registerProjectHistoryRoutes(scope, ctx);
    registerNormalizedRoutes(scope, ctx);
    registerAccessRoutes(scope, ctx);
    registerActiveProjectRoutes(scope, ctx);
    registerMemberRoutes(scope, ctx);
    registerAccountRoutes(scope, ctx);
    registerWorkspaceRoutes(scope, ctx);
    registerApiKeyRoutes(scope, ctx);
    registerBrandingRoutes(scope, ctx);
    registerInviteRoutes(scope, ctx);
    registerQuotaRoutes(scope, ctx);
    registerCourierRoutes(scope, ctx);
    registerIdentitySchemaRoutes(scope, ctx);
    registerBillingRoutes(scope, ctx);
    registerAnalyticsRoutes(scope, ctx, { devTools: opts.devTools === true });
    registerCustomDomainRoutes(scope, ctx);
    registerMetricsRoutes(scope, ctx);
    registerEventStreamRoutes(scope, ctx);
    registerHookRoutes(scope, ctx);
    registerOrganizationRoutes(scope, ctx);
    registerAuditRoutes(scope, ctx);
    if (opts.devTools) {
      registerPlanDevRoute(scope, ctx);
      registerBillingDevRoutes(scope, ctx, async (q, before, ms) => void (await carryWorkingSessions(q, before, ms)));
      registerLocalDnsRoutes(scope, ctx);
    }
  });
}

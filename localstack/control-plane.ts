import type { FastifyInstance } from 'fastify';
import type { LocalStackContext } from '../context';
import { useZodValidation } from '../route';
import { registerAccessRoutes } from './access';
import { registerActiveProjectRoutes } from './active-project';
import { registerAnalyticsRoutes } from '../analytics/routes';
import { registerBillingDevRoutes } from '../billing/dev-routes';
import { registerBillingRoutes } from '../billing/routes';
import { registerApiKeyRoutes } from './api-keys/routes';
import { registerCourierRoutes } from './courier';
import { installErrorHandler } from './errors';
import { registerInviteRoutes } from './invites/routes';
import { registerMemberRoutes } from './members';
import { registerPlanDevRoute, registerQuotaRoutes } from './quota';
import { registerNormalizedRoutes } from './normalized';
import { registerProjectRoutes } from './projects';
import { registerWorkspaceRoutes } from './workspaces';
import { registerIdentitySchemaRoutes } from '../identity-schemas/routes';

/**
 * The control plane of the local stack: the Projects and Workspaces calls of the backoffice, at the root
 * of the stack's URL, authenticated by the console session or a workspace API key. Every route is declared
 * with `route()` (`../route.ts`); errors are Ory's errorGeneric.
 */
export async function registerControlPlane(app: FastifyInstance, ctx: LocalStackContext, opts: { devTools?: boolean } = {}): Promise<void> {
  await app.register(async (scope) => {
    installErrorHandler(scope, ctx.log);
    useZodValidation(scope);
    registerProjectRoutes(scope, ctx);
    registerNormalizedRoutes(scope, ctx);
    registerAccessRoutes(scope, ctx);
    registerActiveProjectRoutes(scope, ctx);
    registerMemberRoutes(scope, ctx);
    registerWorkspaceRoutes(scope, ctx);
    registerApiKeyRoutes(scope, ctx);
    registerInviteRoutes(scope, ctx);
    registerQuotaRoutes(scope, ctx);
    registerCourierRoutes(scope, ctx);
    registerIdentitySchemaRoutes(scope, ctx);
    registerBillingRoutes(scope, ctx);
    registerAnalyticsRoutes(scope, ctx, { devTools: opts.devTools === true });
    if (opts.devTools) {
      registerPlanDevRoute(scope, ctx);
      registerBillingDevRoutes(scope, ctx);
    }
  });
}

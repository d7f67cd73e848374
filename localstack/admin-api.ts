import type { FastifyInstance } from 'fastify';
import { PROJECT_API_PREFIX, useProjectTenant } from '../identity/tenant';
import { useZodValidation } from '../route';
import { useAdminAuthorization, type AdminDeps } from './context';
import { registerAdminExtras } from './admin-extras';
import { registerCourierRoutes } from './courier-routes';
import { installAdminErrorHandler } from './errors';
import { registerIdentityRoutes } from './identity-routes';
import { registerSessionRoutes } from './session-routes';

export type { AdminDeps } from './context';

/**
 * The identity admin API of each project's data plane, at `/project-api/{slug}/admin/…` in Ory's wire
 * format: identities, sessions and courier messages of that project's tenant only. Callers authenticate
 * with the project's API key or as a member of the project signed in to the console (auth.ts).
 */
export async function registerIdentityAdmin(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  await app.register(
    async (scope) => {
      installAdminErrorHandler(scope, deps.ctx.log);
      useZodValidation(scope);
      useProjectTenant(scope, deps.ctx);
      useAdminAuthorization(scope, deps);
      registerIdentityRoutes(scope, deps);
      registerSessionRoutes(scope, deps);
      registerAdminExtras(scope, deps);
      registerCourierRoutes(scope, deps);
    },
    { prefix: PROJECT_API_PREFIX },
  );
}

import type { FastifyInstance } from 'fastify';
import { PROJECT_API_PREFIX, useProjectTenant } from './kernel/tenant';
import { useZodValidation } from './kernel/route';
import type { AdminDeps } from './kernel/admin-context';
import { registerAdminExtras } from './identity/admin-extras';
import { registerAdminRecovery } from './self-service/recovery-admin';
import { registerCourierRoutes } from './courier/routes';
import { identityConflict, installErrorHandler, type ErrorSurface } from './kernel/errors';
import { registerIdentityRoutes } from './identity/routes';
import { registerSessionRoutes } from './session/admin-routes';
import { useAuditLog } from './audit/recorder';

/** Kratos' admin API: refused fields named, a taken identifier or address 409 (the write is rolled back). */
const ADMIN_API_ERRORS: ErrorSurface = { name: 'identity admin', fieldDetails: true, uniqueViolation: identityConflict };

export type { AdminDeps } from './kernel/admin-context';

/**
 * The identity admin API of each project's data plane, at `/project-api/{slug}/admin/…` in Ory's wire
 * format: identities, sessions and courier messages of that project's tenant only. Callers authenticate
 * with the project's API key or as a member of the project signed in to the console: every route
 * declares `auth: 'project-key-or-member'` (kernel/route.ts).
 */
export async function registerIdentityAdmin(app: FastifyInstance, deps: AdminDeps): Promise<void> {
  await app.register(
    async (scope) => {
      installErrorHandler(scope, deps.ctx.log, ADMIN_API_ERRORS);
      useZodValidation(scope);
      useProjectTenant(scope, deps.ctx);
      useAuditLog(scope, deps.ctx, 'data-plane');
      registerIdentityRoutes(scope, deps);
      registerSessionRoutes(scope, deps);
      registerAdminExtras(scope, deps);
      registerAdminRecovery(scope, deps);
      registerCourierRoutes(scope, deps);
    },
    { prefix: PROJECT_API_PREFIX },
  );
}

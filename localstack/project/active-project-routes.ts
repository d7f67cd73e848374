import type { FastifyInstance } from 'fastify';
import { route, type RouteContext } from '../kernel/route';
import { activeProjectBody } from './bodies';
import { notFound } from '../kernel/errors';
import { projectFor } from '../kernel/permissions';
import { findActiveProject, setActiveProject } from './active-project-store';

/**
 * The project the console opens by default, per signed-in identity. A selection the caller can no longer
 * read (removed from the project or its workspace) reads as none, a 404; a purged project's selection is
 * deleted with it. Setting it answers 204.
 */
export function registerActiveProjectRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/console/active/project',
    auth: 'session',
    handler: async ({ q, caller }) => {
      const projectId = await findActiveProject(q, caller.identityId);
      if (!projectId) throw notFound('No active project is set for this user.');
      return { project_id: projectId };
    },
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/console/active/project',
    body: activeProjectBody,
    auth: 'session',
    status: 204,
    handler: async ({ q, caller, body }) => {
      const { project } = await projectFor(q, caller, body.project_id.toLowerCase(), 'read');
      await setActiveProject(q, caller.identityId, project.id);
    },
  });
}

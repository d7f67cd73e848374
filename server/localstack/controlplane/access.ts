import type { FastifyInstance } from 'fastify';
import { accessBody } from './bodies';
import { notFound } from './errors';
import { parseBody, pathId, requireSession } from './http';
import { findProject } from './store/projects';
import { isAllowed, projectRole, workspaceRole, type Role } from './store/roles';
import { findWorkspace } from './store/workspaces';
import type { ControlPlaneContext } from './types';

function answer(role: Role | null, queries: { permission: string }[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const { permission } of queries) out[permission] = isAllowed(role, permission);
  return out;
}

/**
 * Permission checks answer the truth for the caller with 200: a stranger gets false for everything
 * (not a 403), unknown permission names are false. Only a missing project or workspace is a 404.
 */
export function registerAccessRoutes(app: FastifyInstance, ctx: ControlPlaneContext): void {
  app.post('/projects/:project_id/access', async (req) => {
    const session = await requireSession(ctx, req);
    const projectId = pathId(req, 'project_id');
    const queries = parseBody(accessBody, req.body);
    const project = await findProject(ctx.db, projectId);
    if (!project) throw notFound(`Project ${projectId} does not exist.`);
    return answer(await projectRole(ctx.db, session.identityId, project), queries);
  });

  app.post('/workspaces/:workspace/access', async (req) => {
    const session = await requireSession(ctx, req);
    const workspaceId = pathId(req, 'workspace');
    const queries = parseBody(accessBody, req.body);
    if (!(await findWorkspace(ctx.db, workspaceId))) throw notFound(`Workspace ${workspaceId} does not exist.`);
    return { permissions: answer(await workspaceRole(ctx.db, session.identityId, workspaceId), queries) };
  });
}

import type { FastifyInstance } from 'fastify';
import { route, type RouteContext } from '../kernel/route';
import { accessBody, projectIdParams, workspaceParams } from '../project/bodies';
import { notFound } from '../kernel/errors';
import { callerProjectRole, callerWorkspaceRole } from '../kernel/permissions';
import { findProject } from '../project/store';
import { isAllowed, type Role } from '../kernel/roles';
import { findWorkspace } from '../workspace/store';

function answer(role: Role | null, queries: { permission: string }[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const { permission } of queries) out[permission] = isAllowed(role, permission);
  return out;
}

/**
 * Permission checks answer the truth for the caller with 200: a stranger gets false for everything
 * (not a 403), unknown permission names are false. Only a missing project or workspace is a 404.
 */
export function registerAccessRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project_id/access',
    params: projectIdParams,
    body: accessBody,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, params, body }) => {
      const project = await findProject(q, params.project_id);
      if (!project) throw notFound(`Project ${params.project_id} does not exist.`);
      return answer(await callerProjectRole(q, caller, project), body);
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/workspaces/:workspace/access',
    params: workspaceParams,
    body: accessBody,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, params, body }) => {
      if (!(await findWorkspace(q, params.workspace))) throw notFound(`Workspace ${params.workspace} does not exist.`);
      return { permissions: answer(await callerWorkspaceRole(q, caller, params.workspace), body) };
    },
  });
}

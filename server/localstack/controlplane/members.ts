import type { FastifyInstance } from 'fastify';
import { route, type RouteContext } from '../route';
import { projectIdParams, projectMemberParams, workspaceMemberParams, workspaceParams } from './bodies';
import { conflict, forbidden, notFound } from './errors';
import {
  memberViews,
  projectMemberRows,
  removeProjectMember,
  removeWorkspaceMember,
  workspaceMemberRows,
} from './store/members';

/**
 * Members of projects and workspaces. Any member may list; only owners remove others (anyone may remove
 * themselves from a workspace). The last owner can never be removed.
 */
export function registerMemberRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id/members',
    params: projectIdParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    handler: async ({ q, project }) => memberViews(await projectMemberRows(q, project.id, project.workspace_id)),
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/projects/:project_id/members/:member',
    params: projectMemberParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    status: 204,
    handler: async ({ q, project, role, params }) => {
      const memberId = params.member;
      const rows = await projectMemberRows(q, project.id, project.workspace_id);
      const direct = rows.find((r) => r.id === memberId && r.source === 'project');
      const viaWorkspace = rows.some((r) => r.id === memberId && r.source === 'workspace');
      if (role !== 'owner') throw forbidden('Only an owner of this project may remove members.');
      if (!direct && !viaWorkspace) throw notFound(`Identity ${memberId} is not a member of this project.`);
      if (!direct) {
        throw conflict('This member has access through the workspace; remove them from the workspace instead.');
      }
      const ownersLeft = rows.filter((r) => r.role === 'owner' && r !== direct).length;
      if (direct.role === 'owner' && ownersLeft === 0) {
        throw conflict('The last owner of a project cannot be removed. Make another member owner first.');
      }
      await removeProjectMember(q, project.id, memberId);
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/workspaces/:workspace/members',
    params: workspaceParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.read',
    handler: async ({ q, workspace }) => memberViews(await workspaceMemberRows(q, workspace.id)),
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/workspaces/:workspace/members/:member',
    params: workspaceMemberParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.read',
    status: 204,
    handler: async ({ q, workspace, role, caller, params }) => {
      const memberId = params.member;
      const self = caller.kind === 'session' && caller.identityId === memberId;
      if (role !== 'owner' && !self) throw forbidden('Only an owner of this workspace may remove other members.');
      const rows = await workspaceMemberRows(q, workspace.id);
      const target = rows.find((r) => r.id === memberId);
      if (!target) throw notFound(`Identity ${memberId} is not a member of this workspace.`);
      if (target.role === 'owner' && rows.filter((r) => r.role === 'owner').length === 1) {
        throw conflict('The last owner of a workspace cannot be removed. Make another member owner first.');
      }
      await removeWorkspaceMember(q, workspace.id, memberId);
    },
  });
}

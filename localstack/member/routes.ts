import { projectMembersOutput } from '../../shared/schemas/project';
import type { FastifyInstance } from 'fastify';
import { route, type RouteContext } from '../kernel/route';
import { z } from 'zod';
import { projectIdParams, projectMemberParams, workspaceMemberParams, workspaceParams } from '../project/bodies';
import { revokeKeysCreatedBy } from '../api-key/store';
import { conflict, forbidden, notFound } from '../kernel/errors';
import { cancelInvitesSentBy } from '../invite/store';
import {
  memberViews,
  projectMemberRows,
  removeProjectMember,
  removeWorkspaceMember,
  setProjectMemberRole,
  setWorkspaceMemberRole,
  workspaceMemberRows,
} from './store';

/**
 * Members of projects and workspaces. Any member may list; only owners remove others (anyone may remove
 * themselves from a workspace). The last owner can never be removed. Removing a member revokes the API keys
 * they created there (on a workspace: on its projects too) and cancels the invites they sent.
 */
export function registerMemberRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id/members',
    params: projectIdParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: projectMembersOutput,
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
      await revokeKeysCreatedBy(q, memberId, { projectId: project.id });
      await cancelInvitesSentBy(q, memberId, { projectId: project.id });
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
      await revokeKeysCreatedBy(q, memberId, { workspaceId: workspace.id });
      await cancelInvitesSentBy(q, memberId, { workspaceId: workspace.id });
    },
  });

  // Changing a member's role (no published call: PUT …/members/{member}/role with {role}). Owners only; the
  // last owner keeps the role, so a project or workspace always has someone who can manage it.
  route(scope, ctx, {
    method: 'PUT',
    url: '/projects/:project_id/members/:member/role',
    params: projectMemberParams,
    body: memberRoleBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.owner',
    handler: async ({ q, project, params, body }) => {
      const rows = await projectMemberRows(q, project.id, project.workspace_id);
      const direct = rows.find((r) => r.id === params.member && r.source === 'project');
      if (!direct) {
        if (rows.some((r) => r.id === params.member)) {
          throw conflict('This member has access through the workspace; change their role in the workspace instead.');
        }
        throw notFound(`Identity ${params.member} is not a member of this project.`);
      }
      if (direct.role === 'owner' && body.role !== 'owner' && !rows.some((r) => r.role === 'owner' && r !== direct)) {
        throw conflict('The last owner of a project cannot be made a developer. Make another member owner first.');
      }
      await setProjectMemberRole(q, project.id, params.member, body.role);
      return memberViews(await projectMemberRows(q, project.id, project.workspace_id)).find((m) => m.id === params.member);
    },
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/workspaces/:workspace/members/:member/role',
    params: workspaceMemberParams,
    body: memberRoleBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.owner',
    handler: async ({ q, workspace, params, body }) => {
      const rows = await workspaceMemberRows(q, workspace.id);
      const target = rows.find((r) => r.id === params.member);
      if (!target) throw notFound(`Identity ${params.member} is not a member of this workspace.`);
      if (target.role === 'owner' && body.role !== 'owner' && rows.filter((r) => r.role === 'owner').length === 1) {
        throw conflict('The last owner of a workspace cannot be made a developer. Make another member owner first.');
      }
      await setWorkspaceMemberRole(q, workspace.id, params.member, body.role);
      return memberViews(await workspaceMemberRows(q, workspace.id)).find((m) => m.id === params.member);
    },
  });
}

const memberRoleBody = z.object({ role: z.enum(['owner', 'developer'], { error: 'must be owner or developer' }) });

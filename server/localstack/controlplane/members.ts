import type { FastifyInstance } from 'fastify';
import { conflict, forbidden, notFound } from './errors';
import { projectFor, workspaceFor } from './guard';
import { pathId, requireSession } from './http';
import { memberViews, projectMemberRows, workspaceMemberRows } from './store/members';
import type { ControlPlaneContext } from './types';

/**
 * Members of projects and workspaces. Any member may list; only owners remove others (anyone may remove
 * themselves from a workspace). The last owner can never be removed.
 */
export function registerMemberRoutes(app: FastifyInstance, ctx: ControlPlaneContext): void {
  app.get('/projects/:project_id/members', async (req) => {
    const session = await requireSession(ctx, req);
    const { project } = await projectFor(ctx.db, session.identityId, pathId(req, 'project_id'), 'read');
    return memberViews(await projectMemberRows(ctx.db, project.id, project.workspace_id));
  });

  app.delete('/projects/:project_id/members/:member', async (req, reply) => {
    const session = await requireSession(ctx, req);
    const projectId = pathId(req, 'project_id');
    const memberId = pathId(req, 'member');
    await ctx.db.tx(async (q) => {
      const { project } = await projectFor(q, session.identityId, projectId, 'read', true);
      const rows = await projectMemberRows(q, project.id, project.workspace_id);
      const direct = rows.find((r) => r.id === memberId && r.source === 'project');
      const viaWorkspace = rows.some((r) => r.id === memberId && r.source === 'workspace');
      const callerIsOwner = memberViews(rows).some((m) => m.id === session.identityId && m.role === 'owner');
      if (!callerIsOwner) throw forbidden('Only an owner of this project may remove members.');
      if (!direct && !viaWorkspace) throw notFound(`Identity ${memberId} is not a member of this project.`);
      if (!direct) {
        throw conflict('This member has access through the workspace; remove them from the workspace instead.');
      }
      const ownersLeft = rows.filter((r) => r.role === 'owner' && r !== direct).length;
      if (direct.role === 'owner' && ownersLeft === 0) {
        throw conflict('The last owner of a project cannot be removed. Make another member owner first.');
      }
      await q.query('DELETE FROM project_members WHERE project_id = $1 AND identity_id = $2', [projectId, memberId]);
    });
    return reply.code(204).send();
  });

  app.get('/workspaces/:workspace/members', async (req) => {
    const session = await requireSession(ctx, req);
    const { workspace } = await workspaceFor(ctx.db, session.identityId, pathId(req, 'workspace'), 'read');
    return memberViews(await workspaceMemberRows(ctx.db, workspace.id));
  });

  app.delete('/workspaces/:workspace/members/:member', async (req, reply) => {
    const session = await requireSession(ctx, req);
    const workspaceId = pathId(req, 'workspace');
    const memberId = pathId(req, 'member');
    await ctx.db.tx(async (q) => {
      const { role } = await workspaceFor(q, session.identityId, workspaceId, 'read');
      if (role !== 'owner' && memberId !== session.identityId) {
        throw forbidden('Only an owner of this workspace may remove other members.');
      }
      await q.query('SELECT id FROM workspaces WHERE id = $1 FOR UPDATE', [workspaceId]);
      const rows = await workspaceMemberRows(q, workspaceId);
      const target = rows.find((r) => r.id === memberId);
      if (!target) throw notFound(`Identity ${memberId} is not a member of this workspace.`);
      if (target.role === 'owner' && rows.filter((r) => r.role === 'owner').length === 1) {
        throw conflict('The last owner of a workspace cannot be removed. Make another member owner first.');
      }
      await q.query('DELETE FROM workspace_members WHERE workspace_id = $1 AND identity_id = $2', [
        workspaceId,
        memberId,
      ]);
    });
    return reply.code(204).send();
  });
}

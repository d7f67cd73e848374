import type { FastifyInstance } from 'fastify';
import { addProjectToWorkspaceBody, createWorkspaceBody, pageQuery, updateWorkspaceBody } from './bodies';
import { badRequest, conflict, forbidden } from './errors';
import { projectFor, workspaceFor } from './guard';
import { parseBody, parseQuery, pathId, requireSession } from './http';
import { decodePageToken, encodePageToken } from './page-token';
import { findProjectWithName, listWorkspaceProjects, moveToWorkspace, setEnvironment } from './store/projects';
import { toIso } from './store/time';
import { createWorkspace, listMemberWorkspaces, updateWorkspace } from './store/workspaces';
import type { ControlPlaneContext } from './types';
import { projectMetadataView, workspaceView } from './views';

/**
 * Workspaces (WorkspaceApi of @ory/client). Members may read a workspace and its projects; renaming and
 * changing the access policy is reserved to owners, since it changes what every member sees.
 */
export function registerWorkspaceRoutes(app: FastifyInstance, ctx: ControlPlaneContext): void {
  app.post('/workspaces', async (req, reply) => {
    const session = await requireSession(ctx, req);
    const body = parseBody(createWorkspaceBody, req.body);
    const workspace = await ctx.db.tx((q) => createWorkspace(q, body.name, session.identityId));
    return reply.code(201).send(workspaceView(workspace));
  });

  app.get('/workspaces', async (req) => {
    const session = await requireSession(ctx, req);
    const query = parseQuery(pageQuery, req.query);
    const after = decodePageToken(query.page_token);
    const rows = await listMemberWorkspaces(ctx.db, session.identityId, query.page_size, after);
    const page = rows.slice(0, query.page_size);
    const last = page[page.length - 1];
    const hasNext = rows.length > query.page_size && last !== undefined;
    return {
      workspaces: page.map(workspaceView),
      has_next_page: hasNext,
      next_page_token: hasNext ? encodePageToken({ createdAt: toIso(last.created_at), id: last.id }) : '',
    };
  });

  app.get('/workspaces/:workspace', async (req) => {
    const session = await requireSession(ctx, req);
    const { workspace } = await workspaceFor(ctx.db, session.identityId, pathId(req, 'workspace'), 'read');
    return workspaceView(workspace);
  });

  app.put('/workspaces/:workspace', async (req) => {
    const session = await requireSession(ctx, req);
    const workspaceId = pathId(req, 'workspace');
    const body = parseBody(updateWorkspaceBody, req.body);
    return ctx.db.tx(async (q) => {
      await workspaceFor(q, session.identityId, workspaceId, 'owner');
      return workspaceView(await updateWorkspace(q, workspaceId, body.name, body.access_policy));
    });
  });

  app.get('/workspaces/:workspace/projects', async (req) => {
    const session = await requireSession(ctx, req);
    const { workspace } = await workspaceFor(ctx.db, session.identityId, pathId(req, 'workspace'), 'read');
    const rows = await listWorkspaceProjects(ctx.db, workspace.id);
    return { projects: rows.map(projectMetadataView), has_next_page: false, next_page: '' };
  });

  /**
   * Moves a project into a workspace. The caller must own the project and the target workspace; the body
   * repeats the path ids, and original_workspace_id (when sent) must still be the project's workspace.
   */
  app.post('/workspaces/:workspace/add/:project_id', async (req) => {
    const session = await requireSession(ctx, req);
    const workspaceId = pathId(req, 'workspace');
    const projectId = pathId(req, 'project_id');
    const body = parseBody(addProjectToWorkspaceBody, req.body);
    if (body.workspace.toLowerCase() !== workspaceId) {
      throw badRequest('workspace: must equal the workspace in the path.');
    }
    if (body.project.toLowerCase() !== projectId) {
      throw badRequest('project: must equal the project in the path.');
    }
    return ctx.db.tx(async (q) => {
      await workspaceFor(q, session.identityId, workspaceId, 'owner');
      const { project, role } = await projectFor(q, session.identityId, projectId, 'read', true);
      if (role !== 'owner') throw forbidden('Only an owner of this project may move it to another workspace.');
      const original = body.original_workspace_id;
      if (original !== undefined && (original?.toLowerCase() ?? null) !== project.workspace_id) {
        throw conflict('original_workspace_id is not the workspace the project is in now; reload and retry.');
      }
      if (project.workspace_id !== workspaceId) await moveToWorkspace(q, projectId, workspaceId);
      if (body.environment && body.environment !== project.environment) {
        await setEnvironment(q, projectId, body.environment);
      }
      return projectMetadataView((await findProjectWithName(q, projectId))!);
    });
  });
}

import { assertFitsPlanInForce } from '../billing/routes';
import { assertProductionRoom } from '../billing/quota';
import type { FastifyInstance } from 'fastify';
import { eq, inArray, sql } from 'drizzle-orm';
import { route, type RouteContext } from '../kernel/route';
import {
  addProjectToWorkspaceBody,
  createWorkspaceBody,
  pageQuery,
  updateWorkspaceBody,
  workspaceParams,
  workspaceProjectParams,
} from '../project/bodies';
import { badRequest, conflict, forbidden } from '../kernel/errors';
import { projectFor } from '../kernel/permissions';
import { decodePageToken, encodePageToken } from '../kernel/row-page-token';
import { findProjectWithName, listWorkspaceProjects, moveToWorkspace, setEnvironment } from '../project/store';
import { createWorkspace, listWorkspaces, updateWorkspace } from './store';
import { projects, workspaces, type WorkspaceRow } from '../project/schema';
import { subscriptions } from '../billing/schema';
import type { Queryable } from '../kernel/queryable';
import { projectMetadataView, workspaceView } from '../project/views';
import { authorizationChanged } from '../kernel/authz-cache';

/**
 * Workspaces (WorkspaceApi of @ory/client). Members may read a workspace and its projects; renaming and
 * changing the access policy is reserved to owners, since it changes what every member sees. Creating a
 * workspace needs a signed-in user: a workspace key acts within its own workspace only.
 */
export function registerWorkspaceRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'POST',
    url: '/workspaces',
    body: createWorkspaceBody,
    auth: 'session',
    status: 201,
    handler: async ({ q, caller, body }) => workspaceView(await createWorkspace(q, body.name, caller.identityId)),
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/workspaces',
    query: pageQuery,
    auth: 'session-or-workspace-key',
    handler: async ({ q, caller, query }) => {
      const after = decodePageToken(query.page_token);
      const owner = caller.kind === 'session' ? { memberId: caller.identityId } : { workspaceId: caller.workspaceId };
      const rows = await listWorkspaces(q, owner, query.page_size, after);
      const page = rows.slice(0, query.page_size);
      const last = page[page.length - 1];
      const hasNext = rows.length > query.page_size && last !== undefined;
      return {
        workspaces: await withSubscriptions(q, page),
        has_next_page: hasNext,
        next_page_token: hasNext ? encodePageToken({ createdAt: last.created_at.toISOString(), id: last.id }) : '',
      };
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/workspaces/:workspace',
    params: workspaceParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.read',
    handler: async ({ q, workspace }) => (await withSubscriptions(q, [workspace]))[0],
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/workspaces/:workspace',
    params: workspaceParams,
    body: updateWorkspaceBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.owner',
    handler: async ({ q, workspace, body }) =>
      (await withSubscriptions(q, [await updateWorkspace(q, workspace.id, body.name, body.access_policy)]))[0],
  });

  // Deleting a workspace (no published call): owners only, signed in, and only once it holds no project, so
  // nothing is left without a home. Its members, invites, keys and subscription go with it.
  route(scope, ctx, {
    method: 'DELETE',
    url: '/workspaces/:workspace',
    params: workspaceParams,
    auth: 'session',
    permission: 'backoffice.workspace.delete',
    status: 204,
    handler: async ({ q, workspace }) => {
      const [row] = await q.orm.select({ n: sql<number>`count(*)::int` }).from(projects).where(eq(projects.workspace_id, workspace.id));
      const count = row?.n ?? 0;
      if (count > 0) {
        throw conflict(`This workspace still has ${count} project${count === 1 ? '' : 's'}: move ${count === 1 ? 'it' : 'them'} to another workspace or delete ${count === 1 ? 'it' : 'them'} first.`);
      }
      await q.orm.delete(workspaces).where(eq(workspaces.id, workspace.id));
      authorizationChanged();
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/workspaces/:workspace/projects',
    params: workspaceParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.read',
    handler: async ({ q, workspace }) => ({
      projects: (await listWorkspaceProjects(q, workspace.id)).map(projectMetadataView),
      has_next_page: false,
      next_page: '',
    }),
  });

  /**
   * Moves a project into a workspace. The caller must own the project and the target workspace. The spec's
   * body repeats the path ids, and original_workspace_id (when sent) must still be the project's workspace.
   */
  route(scope, ctx, {
    method: 'POST',
    url: '/workspaces/:workspace/add/:project_id',
    params: workspaceProjectParams,
    body: addProjectToWorkspaceBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.workspace.owner',
    handler: async ({ q, caller, workspace, params, body }) => {
      if (body.workspace !== undefined && body.workspace.toLowerCase() !== workspace.id) {
        throw badRequest('workspace: must equal the workspace in the path.');
      }
      if (body.project !== undefined && body.project.toLowerCase() !== params.project_id) {
        throw badRequest('project: must equal the project in the path.');
      }
      const { project, role } = await projectFor(q, caller, params.project_id, 'read', true);
      if (role !== 'owner') throw forbidden('Only an owner of this project may move it to another workspace.');
      const original = body.original_workspace_id;
      if (original !== undefined && (original?.toLowerCase() ?? null) !== project.workspace_id) {
        throw conflict('original_workspace_id is not the workspace the project is in now; reload and retry.');
      }
      const production = (body.environment ?? project.environment) === 'prod';
      if (production && (project.workspace_id !== workspace.id || project.environment !== 'prod')) {
        await assertProductionRoom(q, { id: project.id, workspace_id: workspace.id }, ctx.clock.now());
      }
      if (project.workspace_id !== workspace.id) await moveToWorkspace(q, project.id, workspace.id);
      if (body.environment && body.environment !== project.environment) {
        await setEnvironment(q, project.id, body.environment);
      }
      // Without a subscription of its own, the project now runs on this workspace's plan, which may be lower,
      // and its team takes this workspace's seats.
      if (project.workspace_id !== workspace.id) await assertFitsPlanInForce(q, { kind: 'project', project: { id: project.id, workspace_id: workspace.id } }, 'Moving the project here', ctx.clock.now());
      return projectMetadataView((await findProjectWithName(q, project.id))!);
    },
  });
}

/** Workspace views with each one's subscription, read in one query. */
async function withSubscriptions(q: Queryable, rows: WorkspaceRow[]) {
  const ids = rows.map((r) => r.id);
  const subs = ids.length
    ? await q.orm.select({ id: subscriptions.id, plan: subscriptions.plan, workspace_id: subscriptions.workspace_id }).from(subscriptions).where(inArray(subscriptions.workspace_id, ids))
    : [];
  return rows.map((row) => workspaceView(row, subs.find((s) => s.workspace_id === row.id) ?? null));
}

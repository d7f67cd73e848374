import {
  addProjectToWorkspaceInput,
  createWorkspaceInput,
  listWorkspaceProjectsInput,
  listWorkspacesInput,
  updateWorkspaceInput,
  workspaceIdInput,
} from '../../shared/schemas/workspace';
import type { ProjectMetadata } from '../../shared/schemas/project';
import { forgetAccess } from '../trpc/access';
import { authedProcedure, router, workspaceProcedure } from '../trpc/init';
import { UpstreamError } from '../upstream/errors';

export const workspacesRouter = router({
  list: authedProcedure.input(listWorkspacesInput).query(({ ctx, input }) =>
    ctx.deps.backoffice.listWorkspaces(ctx.call, { pageSize: input?.pageSize, pageToken: input?.pageToken }),
  ),

  get: workspaceProcedure.input(workspaceIdInput).query(({ ctx, input }) => ctx.deps.backoffice.getWorkspace(ctx.call, input.workspace)),

  create: authedProcedure.input(createWorkspaceInput).mutation(({ ctx, input }) => ctx.deps.backoffice.createWorkspace(ctx.call, input.name)),

  /** Renames; the access policy and anything else the control plane keeps is sent back unchanged. */
  update: workspaceProcedure.input(updateWorkspaceInput).mutation(async ({ ctx, input }) => {
    const current = await ctx.deps.backoffice.getWorkspace(ctx.call, input.workspace);
    return ctx.deps.backoffice.updateWorkspace(ctx.call, input.workspace, {
      name: input.name,
      ...(current.access_policy ? { access_policy: current.access_policy } : {}),
    });
  }),

  /** Spec §6: a workspace whose project list answers 403 falls back to listing all projects. */
  listProjects: authedProcedure.input(listWorkspaceProjectsInput).query(async ({ ctx, input }): Promise<ProjectMetadata[]> => {
    try {
      const page = await ctx.deps.backoffice.listWorkspaceProjects(ctx.call, input.workspace);
      return page.projects;
    } catch (error) {
      if (error instanceof UpstreamError && error.kind === 'http' && error.status === 403) {
        ctx.log.info({ workspace: input.workspace }, 'workspace projects answered 403; listing all projects');
        return ctx.deps.backoffice.listProjects(ctx.call);
      }
      throw error;
    }
  }),

  /** Moves a project into the workspace (spec §3 body: workspace, project, original_workspace_id). */
  addProject: workspaceProcedure.input(addProjectToWorkspaceInput).mutation(async ({ ctx, input }) => {
    const project = await ctx.deps.backoffice.getNormalizedProject(ctx.call, input.project);
    const moved = await ctx.deps.backoffice.addProjectToWorkspace(ctx.call, input.workspace, input.project, {
      workspace: input.workspace,
      project: input.project,
      original_workspace_id: project.workspace_id ?? null,
      ...(input.environment ? { environment: input.environment } : {}),
    });
    forgetAccess(ctx, 'project', input.project);
    return moved;
  }),
});

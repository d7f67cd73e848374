import { TRPCError } from '@trpc/server';
import { projectMetadataSchema } from '../../../shared/schemas/project';
import { addProjectToWorkspaceInput, listWorkspaceProjectsInput, workspaceProjectsOutput } from '../../../shared/schemas/workspace';
import { checkAccess, deniedMessage, forgetAccess } from '../../trpc/access';
import { authedProcedure, workspaceProcedure } from '../../trpc/init';
import { UpstreamError } from '../../upstream/errors';

/**
 * Spec §6: a workspace whose project list answers 403 falls back to listing all the caller's projects,
 * so this one checks no workspace permission itself (the control plane decides, per the spec).
 */
export const listProjects = authedProcedure
  .input(listWorkspaceProjectsInput)
  .output(workspaceProjectsOutput)
  .query(async ({ ctx, input }) => {
    try {
      const page = await ctx.deps.backoffice.listWorkspaceProjects(ctx.call, input.workspaceId);
      return page.projects;
    } catch (error) {
      if (error instanceof UpstreamError && error.kind === 'http' && error.status === 403) {
        ctx.log.info({ workspaceId: input.workspaceId }, 'workspace projects answered 403; listing all projects');
        return ctx.deps.backoffice.listProjects(ctx.call);
      }
      throw error;
    }
  });

/**
 * Moves a project into the workspace (spec §3 body: workspace, project, original_workspace_id): the caller
 * must be able to change both the workspace and the project.
 */
export const addProject = workspaceProcedure('backoffice.workspace.write')
  .input(addProjectToWorkspaceInput)
  .output(projectMetadataSchema)
  .mutation(async ({ ctx, input }) => {
    const access = await checkAccess(ctx, 'project', input.projectId, ['backoffice.project.write']);
    if (!access['backoffice.project.write']) {
      throw new TRPCError({ code: 'FORBIDDEN', message: deniedMessage('project', 'backoffice.project.write') });
    }
    const project = await ctx.deps.backoffice.getNormalizedProject(ctx.call, input.projectId);
    const moved = await ctx.deps.backoffice.addProjectToWorkspace(ctx.call, ctx.workspaceId, input.projectId, {
      workspace: ctx.workspaceId,
      project: input.projectId,
      original_workspace_id: project.workspace_id ?? null,
      ...(input.environment ? { environment: input.environment } : {}),
    });
    forgetAccess(ctx, 'project', input.projectId);
    return moved;
  });

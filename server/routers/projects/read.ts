import {
  normalizedProjectSchema,
  projectIdInput,
  projectListOutput,
  projectEndpointOutput,
  projectMembersOutput,
} from '../../../shared/schemas/project';
import { authedProcedure, projectProcedure } from '../../trpc/init';
import { projectSlug } from '../../trpc/project-apis';
import { projectApiBaseUrl } from '../../upstream/project-apis';

/** The caller's projects, across workspaces. */
export const list = authedProcedure.output(projectListOutput).query(({ ctx }) => ctx.deps.backoffice.listProjects(ctx.call));

export const get = projectProcedure('backoffice.project.read')
  .input(projectIdInput)
  .output(normalizedProjectSchema)
  .query(({ ctx }) => ctx.deps.backoffice.getNormalizedProject(ctx.call, ctx.projectId));

export const members = projectProcedure('backoffice.project.read')
  .input(projectIdInput)
  .output(projectMembersOutput)
  .query(({ ctx }) => ctx.deps.backoffice.listProjectMembers(ctx.call, ctx.projectId));

/** Where the project's API answers for this deployment: the cloud's host, or the embedded local stack's path. */
export const endpoint = projectProcedure('backoffice.project.read')
  .input(projectIdInput)
  .output(projectEndpointOutput)
  .query(async ({ ctx }) => {
    const template = ctx.deps.config.projectApiUrl;
    if (!template) return { apiUrl: null };
    return { apiUrl: projectApiBaseUrl(template, await projectSlug(ctx, ctx.projectId)) };
  });

import {
  normalizedProjectSchema,
  projectIdInput,
  projectListOutput,
  projectMembersOutput,
} from '../../../shared/schemas/project';
import { authedProcedure, projectProcedure } from '../../trpc/init';

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

import {
  projectPermissionsInput,
  projectPermissionsOutput,
  workspacePermissionsInput,
  workspacePermissionsOutput,
} from '../../../shared/schemas/permissions';
import { checkAccess } from '../../trpc/access';
import { authedProcedure } from '../../trpc/init';

/**
 * Spec §6 permission checks: any signed-in caller may ask, and is told false for objects not theirs.
 * Answers are cached briefly per instance and session.
 */
export const project = authedProcedure
  .input(projectPermissionsInput)
  .output(projectPermissionsOutput)
  .query(({ ctx, input }) => checkAccess(ctx, 'project', input.projectId, input.permissions));

export const workspace = authedProcedure
  .input(workspacePermissionsInput)
  .output(workspacePermissionsOutput)
  .query(({ ctx, input }) => checkAccess(ctx, 'workspace', input.workspaceId, input.permissions));

import { projectPermissionsInput, workspacePermissionsInput } from '../../shared/schemas/permissions';
import { checkAccess } from '../trpc/access';
import { authedProcedure, router } from '../trpc/init';

/** Spec §6 permission checks; answers are cached briefly per instance and session. */
export const permissionsRouter = router({
  project: authedProcedure
    .input(projectPermissionsInput)
    .query(({ ctx, input }) => checkAccess(ctx, 'project', input.projectId, input.permissions)),

  workspace: authedProcedure
    .input(workspacePermissionsInput)
    .query(({ ctx, input }) => checkAccess(ctx, 'workspace', input.workspace, input.permissions)),
});

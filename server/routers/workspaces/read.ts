import {
  listWorkspacesInput,
  listWorkspacesResponseSchema,
  workspaceIdInput,
  workspaceSchema,
} from '../../../shared/schemas/workspace';
import { authedProcedure, workspaceProcedure } from '../../trpc/init';

/** The caller's workspaces, one page at a time. */
export const list = authedProcedure
  .input(listWorkspacesInput)
  .output(listWorkspacesResponseSchema)
  .query(({ ctx, input }) => ctx.deps.backoffice.listWorkspaces(ctx.call, { pageSize: input?.pageSize, pageToken: input?.pageToken }));

export const get = workspaceProcedure('backoffice.workspace.read')
  .input(workspaceIdInput)
  .output(workspaceSchema)
  .query(({ ctx }) => ctx.deps.backoffice.getWorkspace(ctx.call, ctx.workspaceId));

import { createWorkspaceInput, updateWorkspaceInput, workspaceSchema } from '../../../shared/schemas/workspace';
import { authedProcedure, workspaceProcedure } from '../../trpc/init';

export const create = authedProcedure
  .input(createWorkspaceInput)
  .output(workspaceSchema)
  .mutation(({ ctx, input }) => ctx.deps.backoffice.createWorkspace(ctx.call, input.name));

/** Renames; the access policy and anything else the control plane keeps is sent back unchanged. */
export const update = workspaceProcedure('backoffice.workspace.write')
  .input(updateWorkspaceInput)
  .output(workspaceSchema)
  .mutation(async ({ ctx, input }) => {
    const current = await ctx.deps.backoffice.getWorkspace(ctx.call, ctx.workspaceId);
    return ctx.deps.backoffice.updateWorkspace(ctx.call, ctx.workspaceId, {
      name: input.name,
      ...(current.access_policy ? { access_policy: current.access_policy } : {}),
    });
  });

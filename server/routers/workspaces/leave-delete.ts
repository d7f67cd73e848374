import { TRPCError } from '@trpc/server';
import { confirmsName } from '../../../shared/domain/typed-confirmation';
import { deletedOutput } from '../../../shared/schemas/project';
import { deleteWorkspaceInput, workspaceIdInput } from '../../../shared/schemas/workspace';
import { forgetAccess } from '../../trpc/access';
import { workspaceProcedure } from '../../trpc/init';

/** A member leaves a workspace; the control plane refuses the last owner (CONFLICT, saying to name another first). */
export const leave = workspaceProcedure('backoffice.workspace.read')
  .input(workspaceIdInput)
  .output(deletedOutput)
  .mutation(async ({ ctx }) => {
    const self = ctx.session.identity?.id;
    if (!self) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'You need to sign in to do this.' });
    await ctx.deps.backoffice.team.removeMember(ctx.call, { kind: 'workspace', workspaceId: ctx.workspaceId }, self);
    forgetAccess(ctx, 'workspace', ctx.workspaceId);
    return { ok: true as const };
  });

/** Deletes an empty workspace, only when the typed confirmation equals its current name. */
export const remove = workspaceProcedure('backoffice.workspace.delete')
  .input(deleteWorkspaceInput)
  .output(deletedOutput)
  .mutation(async ({ ctx, input }) => {
    const current = await ctx.deps.backoffice.getWorkspace(ctx.call, ctx.workspaceId);
    if (!confirmsName(input.confirmName, current.name)) throw new TRPCError({ code: 'BAD_REQUEST', message: 'Type the workspace name exactly to confirm deletion' });
    await ctx.deps.backoffice.team.deleteWorkspace(ctx.call, ctx.workspaceId);
    forgetAccess(ctx, 'workspace', ctx.workspaceId);
    return { ok: true as const };
  });

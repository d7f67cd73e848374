import { TRPCError } from '@trpc/server';
import { CONFIRM_NAME_MISMATCH, confirmsName } from '../../../shared/domain/typed-confirmation';
import { deleteProjectInput, deletedOutput } from '../../../shared/schemas/project';
import { forgetAccess } from '../../trpc/access';
import { projectProcedure } from '../../trpc/init';

/** Deletes only when the typed confirmation equals the project's current name. */
export const remove = projectProcedure('backoffice.project.delete')
  .input(deleteProjectInput)
  .output(deletedOutput)
  .mutation(async ({ ctx, input }) => {
    const current = await ctx.deps.backoffice.getNormalizedProject(ctx.call, ctx.projectId);
    if (!confirmsName(input.confirmName, current.current_revision.name)) {
      throw new TRPCError({ code: 'BAD_REQUEST', message: CONFIRM_NAME_MISMATCH });
    }
    await ctx.deps.backoffice.purgeProject(ctx.call, ctx.projectId);
    forgetAccess(ctx, 'project', ctx.projectId);
    return { ok: true as const };
  });

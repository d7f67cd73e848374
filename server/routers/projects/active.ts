import { TRPCError } from '@trpc/server';
import { MESSAGES } from '../../../shared/messages';
import { activeProjectOutput, setActiveProjectInput } from '../../../shared/schemas/project';
import { authedProcedure, projectProcedure } from '../../trpc/init';

/** The project the caller last worked on; NOT_FOUND with the spec text when there is none. */
export const getActive = authedProcedure.output(activeProjectOutput).query(async ({ ctx }) => {
  const answer = await ctx.deps.backoffice.getActiveProject(ctx.call);
  if (!answer.project_id) throw new TRPCError({ code: 'NOT_FOUND', message: MESSAGES.noActiveProject });
  return { projectId: answer.project_id };
});

export const setActive = projectProcedure('backoffice.project.read')
  .input(setActiveProjectInput)
  .output(activeProjectOutput)
  .mutation(async ({ ctx }) => {
    const answer = await ctx.deps.backoffice.setActiveProject(ctx.call, ctx.projectId);
    return { projectId: answer.project_id ?? ctx.projectId };
  });

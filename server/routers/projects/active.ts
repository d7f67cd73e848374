import { TRPCError } from '@trpc/server';
import { MESSAGES } from '../../../shared/messages';
import { activeProjectOutput, setActiveProjectInput } from '../../../shared/schemas/project';
import { authedProcedure, projectProcedure } from '../../trpc/init';
import { UpstreamError } from '../../upstream/errors';

/** The project the caller last worked on; NOT_FOUND with the spec text when there is none. */
export const getActive = authedProcedure.output(activeProjectOutput).query(async ({ ctx }) => {
  const answer = await ctx.deps.backoffice.getActiveProject(ctx.call).catch((error: unknown) => {
    // The control plane answers 404 when no project is selected (getActiveProjectInConsole).
    if (error instanceof UpstreamError && error.kind === 'http' && error.status === 404) return { project_id: undefined };
    throw error;
  });
  if (!answer.project_id) throw new TRPCError({ code: 'NOT_FOUND', message: MESSAGES.noActiveProject });
  return { projectId: answer.project_id };
});

export const setActive = projectProcedure('backoffice.project.read')
  .input(setActiveProjectInput)
  .output(activeProjectOutput)
  .mutation(async ({ ctx }) => {
    await ctx.deps.backoffice.setActiveProject(ctx.call, ctx.projectId);
    return { projectId: ctx.projectId };
  });

import { TRPCError } from '@trpc/server';
import { normalizedProjectSchema, setProjectEnvironmentInput, updateProjectInput } from '../../../shared/schemas/project';
import { projectProcedure } from '../../trpc/init';

/**
 * Renames with a JSON patch on the revision the edit started from (else the current one), so every
 * other revision field survives; an edit based on an older revision answers CONFLICT (stale revision).
 */
export const update = projectProcedure('backoffice.project.write')
  .input(updateProjectInput)
  .output(normalizedProjectSchema)
  .mutation(async ({ ctx, input }) => {
    const { backoffice } = ctx.deps;
    const current = input.revisionId ? undefined : await backoffice.getNormalizedProject(ctx.call, ctx.projectId);
    const revisionId = input.revisionId ?? current?.current_revision.id;
    if (!revisionId) throw new TRPCError({ code: 'BAD_GATEWAY', message: 'The project has no revision to update.' });
    return backoffice.patchNormalizedProjectRevision(ctx.call, ctx.projectId, revisionId, [{ op: 'replace', path: '/name', value: input.name }]);
  });

export const setEnvironment = projectProcedure('backoffice.project.write')
  .input(setProjectEnvironmentInput)
  .output(normalizedProjectSchema)
  .mutation(async ({ ctx, input }) => {
    await ctx.deps.backoffice.setProjectEnvironment(ctx.call, ctx.projectId, input.environment);
    return ctx.deps.backoffice.getNormalizedProject(ctx.call, ctx.projectId);
  });

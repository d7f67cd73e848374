import { TRPCError } from '@trpc/server';
import { createProjectInput, normalizedProjectSchema } from '../../../shared/schemas/project';
import { checkAccess, deniedMessage } from '../../trpc/access';
import { authedProcedure } from '../../trpc/init';

/** Creates a project, in a workspace the caller may change when one is named. */
export const create = authedProcedure
  .input(createProjectInput)
  .output(normalizedProjectSchema)
  .mutation(async ({ ctx, input }) => {
    if (input.workspaceId) {
      const access = await checkAccess(ctx, 'workspace', input.workspaceId, ['backoffice.workspace.write']);
      if (!access['backoffice.workspace.write']) {
        throw new TRPCError({ code: 'FORBIDDEN', message: deniedMessage('workspace', 'backoffice.workspace.write') });
      }
    }
    return ctx.deps.backoffice.createNormalizedProject(ctx.call, {
      name: input.name,
      environment: input.environment,
      ...(input.workspaceId ? { workspace_id: input.workspaceId } : {}),
    });
  });

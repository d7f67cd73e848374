import { apiKeyCreatedOutput, apiKeyCreateInput, apiKeyDeleteInput, apiKeysListInput, apiKeysOutput, okOutput } from '../../../shared/schemas/team';
import { router, scopeProcedure } from '../../trpc/init';

/**
 * API keys of a project (ory_pat_) or a workspace (ory_wak_): members list them (never with the secret),
 * owners create them (the secret is answered once, here, and never logged) and delete them.
 */
export const apiKeysRouter = router({
  list: scopeProcedure('read')
    .input(apiKeysListInput)
    .output(apiKeysOutput)
    // apiKeySchema has no `value`: parsing the upstream answer drops a secret that should never be there.
    .query(({ ctx }) => ctx.deps.backoffice.team.listApiKeys(ctx.call, ctx.scope)),

  create: scopeProcedure('owner')
    .input(apiKeyCreateInput)
    .output(apiKeyCreatedOutput)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.team.createApiKey(ctx.call, ctx.scope, input.name, input.expiresAt)),

  delete: scopeProcedure('owner')
    .input(apiKeyDeleteInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.deps.backoffice.team.deleteApiKey(ctx.call, ctx.scope, input.keyId);
      return { ok: true as const };
    }),
});

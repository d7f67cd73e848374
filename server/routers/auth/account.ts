import { TRPCError } from '@trpc/server';
import { confirmsName } from '../../../shared/domain/typed-confirmation';
import { DELETE_ACCOUNT_MISMATCH, deleteAccountInput, deleteAccountOutput } from '../../../shared/schemas/session';
import { evictSession } from '../../deps';
import { authedProcedure } from '../../trpc/init';

/**
 * Deletes the caller's own console account once its email address is typed to confirm. The control plane
 * refuses (CONFLICT, naming them) while the account is the last owner of a workspace or project; otherwise its
 * sessions, memberships, API keys and invites go with it, and the BFF forgets what it kept for this session.
 */
export const deleteAccount = authedProcedure
  .input(deleteAccountInput)
  .output(deleteAccountOutput)
  .mutation(async ({ ctx, input }) => {
    const email = ctx.session.identity?.traits.email ?? '';
    if (!email || !confirmsName(input.confirmEmail, email)) throw new TRPCError({ code: 'BAD_REQUEST', message: DELETE_ACCOUNT_MISMATCH });
    await ctx.deps.backoffice.team.deleteAccount(ctx.call);
    evictSession(ctx.deps.caches, ctx.call.cookie);
    return { deleted: true as const };
  });

import {
  createInviteOutput,
  inviteCreateInput,
  inviteIdInput,
  inviteLinkInput,
  inviteOutput,
  invitesListInput,
  invitesOutput,
  myInvitesOutput,
  okOutput,
  publicInviteInput,
  publicInviteSchema,
} from '../../../shared/schemas/team';
import { authedProcedure, publicProcedure, router, scopeProcedure } from '../../trpc/init';

/**
 * Invites (spec §4 invite statuses, §7 Invites): owners invite within the plan's seats (quota_exceeded
 * otherwise, with the feature named), the invitee accepts or declines, owners cancel or remove. The invite
 * page shows an invite to a signed-out visitor holding its emailed link through `getPublic`.
 */
export const invitesRouter = router({
  create: scopeProcedure('owner')
    .input(inviteCreateInput)
    .output(createInviteOutput)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.team.createInvite(ctx.call, ctx.scope, input.email, input.role)),

  list: scopeProcedure('read')
    .input(invitesListInput)
    .output(invitesOutput)
    .query(({ ctx }) => ctx.deps.backoffice.team.listInvites(ctx.call, ctx.scope)),

  mine: authedProcedure.output(myInvitesOutput).query(({ ctx }) => ctx.deps.backoffice.team.myInvites(ctx.call)),

  getPublic: publicProcedure
    .input(publicInviteInput)
    .output(publicInviteSchema)
    .query(({ ctx, input }) => ctx.deps.backoffice.team.publicInvite(ctx.call, input.inviteId, input.token)),

  /** Attaches an invite sent to another address to the signed-in account, with the emailed link's token. */
  link: authedProcedure
    .input(inviteLinkInput)
    .output(inviteOutput)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.team.linkInvite(ctx.call, input.inviteId, input.token)),

  accept: authedProcedure
    .input(inviteIdInput)
    .output(inviteOutput)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.team.answerInvite(ctx.call, input.inviteId, 'accept')),

  decline: authedProcedure
    .input(inviteIdInput)
    .output(inviteOutput)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.team.answerInvite(ctx.call, input.inviteId, 'decline')),

  /** Owners of the invite's project or workspace only; the control plane checks whose invite it is. */
  cancel: authedProcedure
    .input(inviteIdInput)
    .output(inviteOutput)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.team.answerInvite(ctx.call, input.inviteId, 'cancel')),

  remove: authedProcedure
    .input(inviteIdInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.deps.backoffice.team.removeInvite(ctx.call, input.inviteId);
      return { ok: true as const };
    }),
});


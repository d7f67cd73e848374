import { memberInput, memberKeysOutput, memberOutput, memberRoleInput, membersListInput, membersOutput, okOutput } from '../../../shared/schemas/team';
import { forgetAccess } from '../../trpc/access';
import { router, scopeProcedure } from '../../trpc/init';

/** Members of a project or a workspace: every member reads them; owners remove members and change roles. */
export const membersRouter = router({
  list: scopeProcedure('read')
    .input(membersListInput)
    .output(membersOutput)
    .query(({ ctx }) => ctx.deps.backoffice.team.listMembers(ctx.call, ctx.scope)),

  /** The API keys that removing the member revokes, for the confirmation to name them first. */
  keys: scopeProcedure('owner')
    .input(memberInput)
    .output(memberKeysOutput)
    .query(({ ctx, input }) => ctx.deps.backoffice.team.keysCreatedBy(ctx.call, ctx.scope, input.memberId)),

  remove: scopeProcedure('owner')
    .input(memberInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.deps.backoffice.team.removeMember(ctx.call, ctx.scope, input.memberId);
      return { ok: true as const };
    }),

  setRole: scopeProcedure('owner')
    .input(memberRoleInput)
    .output(memberOutput)
    .mutation(async ({ ctx, input }) => {
      const member = await ctx.deps.backoffice.team.setMemberRole(ctx.call, ctx.scope, input.memberId, input.role);
      // The caller may have changed their own role: what this session knew of its permissions is stale.
      forgetAccess(ctx, ctx.scope.kind, ctx.scope.kind === 'project' ? ctx.scope.projectId : ctx.scope.workspaceId);
      return member;
    }),
});

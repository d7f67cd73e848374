import { QUOTA_FEATURES } from '../../../shared/domain/quota';
import { quotaAllInput, quotaAllOutput, quotaInput, quotaOutput } from '../../../shared/schemas/team';
import { router, scopeProcedure } from '../../trpc/init';

/** quotaUsage of a feature under the plan in force of a project or a workspace (spec §7, §9). */
export const quotaRouter = router({
  get: scopeProcedure('read')
    .input(quotaInput)
    .output(quotaOutput)
    .query(({ ctx, input }) => ctx.deps.backoffice.team.quota(ctx.call, ctx.scope, input.feature)),
  /** Every spec §9 feature with its plan limit and use (the limits page), in the spec's order. */
  all: scopeProcedure('read')
    .input(quotaAllInput)
    .output(quotaAllOutput)
    .query(({ ctx }) => Promise.all(QUOTA_FEATURES.map((feature) => ctx.deps.backoffice.team.quota(ctx.call, ctx.scope, feature)))),
});

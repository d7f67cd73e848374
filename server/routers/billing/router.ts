import { TRPCError } from '@trpc/server';
import { planDisplayName, resolvePlanId } from '../../../shared/domain/plans';
import { toBillingPeriods } from '../../../shared/domain/invoices';
import {
  changePlanInput,
  invoicesInput,
  invoicesOutput,
  plansOutput,
  portalUrlInput,
  portalUrlOutput,
  subscriptionOutput,
  subscriptionScopeInput,
  unlinkProjectInput,
} from '../../../shared/schemas/billing';
import type { UpstreamSubscription } from '../../../shared/schemas/plans';
import { MESSAGES } from '../../../shared/messages';
import { forgetAccess } from '../../trpc/access';
import { authedProcedure, projectProcedure, router, scopeProcedure } from '../../trpc/init';
import type { Context } from '../../trpc/context';
import type { TeamScope } from '../../upstream/team';

const answer = (subscription: UpstreamSubscription | null) => {
  const planId = subscription ? (resolvePlanId(subscription.current_plan) ?? subscription.current_plan) : 'Develop@0';
  return { subscription, planId, planName: planDisplayName(planId) };
};

/** A project's subscription, by the id the project names (spec §5: none → 'Project has no subscription'). */
async function projectSubscription(ctx: Context, projectId: string): Promise<UpstreamSubscription> {
  const project = await ctx.deps.backoffice.getNormalizedProject(ctx.call, projectId);
  const id = (project as { subscription_id?: string | null }).subscription_id;
  if (!id) throw new TRPCError({ code: 'BAD_REQUEST', message: MESSAGES.projectHasNoSubscription });
  return ctx.deps.backoffice.team.subscription(ctx.call, id);
}

async function current(ctx: Context, scope: TeamScope): Promise<UpstreamSubscription | null> {
  return scope.kind === 'project' ? projectSubscription(ctx, scope.projectId) : ctx.deps.backoffice.team.workspaceSubscription(ctx.call, scope.workspaceId);
}

/**
 * Plans and subscriptions (spec §7 Billing): members read the plan in force; only owners change it
 * (`backoffice.{project|workspace}.upgrade`). A downgrade the usage does not fit is refused with the reason.
 */
export const billingRouter = router({
  plans: authedProcedure.output(plansOutput).query(({ ctx }) => ctx.deps.backoffice.team.pricing(ctx.call)),

  getSubscription: scopeProcedure('read')
    .input(subscriptionScopeInput)
    .output(subscriptionOutput)
    .query(async ({ ctx }) => answer(await current(ctx, ctx.scope))),

  changePlan: scopeProcedure('upgrade')
    .input(changePlanInput)
    .output(subscriptionOutput)
    .mutation(async ({ ctx, input }) => {
      const body = { plan: input.plan, interval: input.interval };
      const { team } = ctx.deps.backoffice;
      let changed: UpstreamSubscription;
      // The currency is chosen when a subscription starts (Ory's update body has none).
      if (ctx.scope.kind === 'workspace') {
        const existing = await team.workspaceSubscription(ctx.call, ctx.scope.workspaceId);
        changed = existing
          ? await team.setWorkspacePlan(ctx.call, ctx.scope.workspaceId, body)
          : await team.createWorkspaceSubscription(ctx.call, ctx.scope.workspaceId, { ...body, currency: input.currency });
      }
      else {
        const project = await ctx.deps.backoffice.getNormalizedProject(ctx.call, ctx.scope.projectId);
        const id = (project as { subscription_id?: string | null }).subscription_id;
        changed = id
          ? await team.setSubscriptionPlan(ctx.call, id, body)
          : await team.createProjectSubscription(ctx.call, ctx.scope.projectId, { ...body, currency: input.currency });
      }
      forgetAccess(ctx, ctx.scope.kind, ctx.scope.kind === 'project' ? ctx.scope.projectId : ctx.scope.workspaceId);
      return answer(changed);
    }),

  invoices: scopeProcedure('read')
    .input(invoicesInput)
    .output(invoicesOutput)
    .query(async ({ ctx, input }) => {
      const { team } = ctx.deps.backoffice;
      const subscription = await current(ctx, ctx.scope);
      // A workspace on Develop has no subscription, hence no invoices.
      if (!subscription) return { periods: [], nextPageToken: null };
      return toBillingPeriods(await team.invoices(ctx.call, subscription.id, input.pageToken));
    }),

  portalUrl: scopeProcedure('upgrade')
    .input(portalUrlInput)
    .output(portalUrlOutput)
    .query(async ({ ctx }) => {
      const { team } = ctx.deps.backoffice;
      const scope = ctx.scope;
      const answer =
        scope.kind === 'workspace'
          ? await team.customerPortal(ctx.call, { workspace: scope.workspaceId }, `/workspaces/${scope.workspaceId}/settings/billing`)
          : await team.customerPortal(ctx.call, { subscriptionId: (await projectSubscription(ctx, scope.projectId)).id }, `/projects/${scope.projectId}/settings/billing`);
      return answer.available && answer.url ? { url: answer.url, reason: null } : { url: null, reason: answer.reason ?? 'no_subscription' };
    }),

  unlinkProject: projectProcedure('backoffice.project.upgrade')
    .input(unlinkProjectInput)
    .output(subscriptionOutput)
    .mutation(async ({ ctx }) => {
      await ctx.deps.backoffice.team.unlinkProjectSubscription(ctx.call, ctx.projectId);
      return answer(null);
    }),
});

import { MESSAGES } from '../../../shared/messages';
import {
  customDomainListSchema,
  customDomainSchema,
  domainCreateInput,
  domainDeleteInput,
  domainOkOutput,
  domainsListInput,
  domainUpdateInput,
  settingsBody,
} from '../../../shared/schemas/custom-domains';
import { projectProcedure, router } from '../../trpc/init';

/**
 * Custom domains of a project (spec §7): members list them (each looked up in DNS as it is listed), writers
 * add and change them, and removing one takes the project's delete permission. Host names follow spec §5.
 */
export const domainsRouter = router({
  list: projectProcedure('backoffice.project.read', { missingIdMessage: MESSAGES.customDomainsProjectIdRequired })
    .input(domainsListInput)
    .output(customDomainListSchema)
    .query(({ ctx }) => ctx.deps.backoffice.customDomains.list(ctx.call, ctx.projectId)),

  create: projectProcedure('backoffice.project.write')
    .input(domainCreateInput)
    .output(customDomainSchema)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.customDomains.create(ctx.call, ctx.projectId, { hostname: input.hostname, ...settingsBody(input) })),

  update: projectProcedure('backoffice.project.write')
    .input(domainUpdateInput)
    .output(customDomainSchema)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.customDomains.update(ctx.call, ctx.projectId, input.domainId, settingsBody(input))),

  delete: projectProcedure('backoffice.project.delete')
    .input(domainDeleteInput)
    .output(domainOkOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.deps.backoffice.customDomains.remove(ctx.call, ctx.projectId, input.domainId);
      return { ok: true as const };
    }),
});

import {
  createOnboardingLinkInput,
  createOrganizationInput,
  onboardingLinkInput,
  onboardingLinkOutput,
  onboardingLinksInput,
  onboardingLinksOutput,
  organizationInput,
  organizationListOutput,
  organizationOutput,
  organizationsListInput,
  organizationsOkOutput,
  updateOnboardingLinkInput,
  updateOrganizationInput,
} from '../../../shared/schemas/organizations';
import { projectProcedure, router } from '../../trpc/init';

/**
 * Organizations of a project (spec §2 `/authentication/organizations`, §7): members list and read them,
 * writers create and edit them, deleting one takes the project's delete permission. The plan's
 * `organizations` quota is the control plane's to enforce (feature_not_available / quota_exceeded).
 */
export const organizationsRouter = router({
  list: projectProcedure('backoffice.project.read')
    .input(organizationsListInput)
    .output(organizationListOutput)
    .query(({ ctx, input }) => ctx.deps.backoffice.organizations.list(ctx.call, ctx.projectId, { pageSize: input.pageSize, pageToken: input.pageToken, domain: input.domain || undefined })),

  get: projectProcedure('backoffice.project.read')
    .input(organizationInput)
    .output(organizationOutput)
    .query(async ({ ctx, input }) => (await ctx.deps.backoffice.organizations.get(ctx.call, ctx.projectId, input.organizationId)).organization),

  create: projectProcedure('backoffice.project.write')
    .input(createOrganizationInput)
    .output(organizationOutput)
    .mutation(({ ctx, input }) => ctx.deps.backoffice.organizations.create(ctx.call, ctx.projectId, { label: input.label, domains: input.domains })),

  /** Changes the label and domains given; the rest of the organization (region, session lifespan) stays. */
  update: projectProcedure('backoffice.project.write')
    .input(updateOrganizationInput)
    .output(organizationOutput)
    .mutation(({ ctx, input }) =>
      ctx.deps.backoffice.organizations.update(ctx.call, ctx.projectId, input.organizationId, {
        ...(input.label !== undefined ? { label: input.label } : {}),
        ...(input.domains !== undefined ? { domains: input.domains } : {}),
      }),
    ),

  delete: projectProcedure('backoffice.project.delete')
    .input(organizationInput)
    .output(organizationsOkOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.deps.backoffice.organizations.remove(ctx.call, ctx.projectId, input.organizationId);
      return { ok: true as const };
    }),
});

/** Onboarding portal links of an organization: expiring links for the customer's administrator to set up SSO (plan feature `onboarding_portal`). */
export const onboardingLinksRouter = router({
  list: projectProcedure('backoffice.project.read')
    .input(onboardingLinksInput)
    .output(onboardingLinksOutput)
    .query(({ ctx, input }) => ctx.deps.backoffice.organizations.links(ctx.call, ctx.projectId, input.organizationId)),

  create: projectProcedure('backoffice.project.write')
    .input(createOnboardingLinkInput)
    .output(onboardingLinkOutput)
    .mutation(({ ctx, input }) =>
      ctx.deps.backoffice.organizations.createLink(ctx.call, ctx.projectId, input.organizationId, {
        enable_sso: input.enableSso,
        enable_scim: input.enableScim,
        ...(input.expiresAt ? { expires_at: input.expiresAt } : {}),
      }),
    ),

  update: projectProcedure('backoffice.project.write')
    .input(updateOnboardingLinkInput)
    .output(onboardingLinkOutput)
    .mutation(({ ctx, input }) =>
      ctx.deps.backoffice.organizations.updateLink(ctx.call, ctx.projectId, input.organizationId, input.linkId, {
        enable_sso: input.enableSso,
        enable_scim: input.enableScim,
        ...(input.expiresAt ? { expires_at: input.expiresAt } : {}),
      }),
    ),

  delete: projectProcedure('backoffice.project.write')
    .input(onboardingLinkInput)
    .output(organizationsOkOutput)
    .mutation(async ({ ctx, input }) => {
      await ctx.deps.backoffice.organizations.removeLink(ctx.call, ctx.projectId, input.organizationId, input.linkId);
      return { ok: true as const };
    }),
});

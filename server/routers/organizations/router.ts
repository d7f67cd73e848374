import {
  createOnboardingLinkInput,
  createOrganizationInput,
  onboardingLinkInput,
  onboardingLinkOutput,
  onboardingLinksInput,
  onboardingLinksOutput,
  organizationInput,
  organizationListOutput,
  organizationMembersOutput,
  organizationOutput,
  organizationsListInput,
  organizationsOkOutput,
  updateOnboardingLinkInput,
  updateOrganizationInput,
} from '../../../shared/schemas/organizations';
import { dataPlaneProcedure, projectProcedure, router } from '../../trpc/init';
import { nextTokenOf } from '../identities/paging';

/** Identities read per upstream page, and pages read at most, when counting an organization's members. */
const MEMBERS_PAGE_SIZE = 500;
const MEMBERS_MAX_PAGES = 20;

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

  /**
   * Members: the project's identities whose organization_id is this organization (the identity API's
   * organization_id filter), counted up to 10,000; `more` says there are more than that.
   */
  members: dataPlaneProcedure('backoffice.project.read')
    .input(organizationInput)
    .output(organizationMembersOutput)
    .query(async ({ ctx, input }) => {
      // Another project's organization is as missing here as on `get`.
      await ctx.deps.backoffice.organizations.get(ctx.call, ctx.projectId, input.organizationId);
      let count = 0;
      let token: string | null = null;
      for (let page = 0; page < MEMBERS_MAX_PAGES; page += 1) {
        const res = await ctx.apis.identity.listIdentities({ organizationId: input.organizationId, pageSize: MEMBERS_PAGE_SIZE, ...(token ? { pageToken: token } : {}) });
        count += res.data.length;
        token = nextTokenOf(res.headers as Record<string, unknown>);
        if (!token) return { count, more: false };
      }
      return { count, more: true };
    }),

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

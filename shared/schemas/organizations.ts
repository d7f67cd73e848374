import type {
  CreateOrganizationOnboardingPortalLinkBody,
  ListOrganizationsResponse,
  OnboardingPortalLink,
  Organization,
  OrganizationBody,
  OrganizationOnboardingPortalLinksResponse,
  UpdateOrganizationOnboardingPortalLinkBody,
} from '@ory/client';
import { z } from 'zod';
import { domainNameSchema } from '../domain/domain-name';
import { uuidSchema } from './common';
import { conformsTo } from './wire';

/*
 * Organizations of a project and their onboarding portal links (spec §3, §7; CONTRACT.md: organization,
 * OrganizationBody, listOrganizationsResponse, onboardingPortalLink). Domains follow spec §5.
 */

export const ORGANIZATION_REGIONS = ['eu-central', 'asia-northeast', 'us-east', 'us-west', 'eu', 'asia', 'us', 'global'] as const;
const regionSchema = z.enum(ORGANIZATION_REGIONS, { error: `Use one of ${ORGANIZATION_REGIONS.join(', ')}` });

export const MAX_ORGANIZATION_DOMAINS = 100;
export const ORGANIZATIONS_PAGE_SIZE = 25;

export const organizationSchema = conformsTo<Organization>()(
  z.looseObject({
    id: z.string(),
    label: z.string(),
    domains: z.array(z.string()),
    created_at: z.string(),
    default_region: regionSchema.optional(),
    session_lifespan: z.string().optional(),
  }),
);
export type OrganizationView = z.infer<typeof organizationSchema>;

export const listOrganizationsResponseSchema = conformsTo<ListOrganizationsResponse>()(
  z.object({ organizations: z.array(organizationSchema), has_next_page: z.boolean(), next_page_token: z.string() }),
);
export const getOrganizationResponseSchema = z.object({ organization: organizationSchema });

const labelSchema = z
  .string({ error: 'Give the organization a name' })
  .trim()
  .min(1, { error: 'Give the organization a name' })
  .max(255, { error: 'A name has at most 255 characters' });

/** Domains: each a domain name (spec §5), at most 100, none twice (compared case-insensitively). */
export const organizationDomainsSchema = z
  .array(domainNameSchema.transform((d) => d.toLowerCase().replace(/\.$/, '')), { error: 'Domains must be a list of domain names' })
  .max(MAX_ORGANIZATION_DOMAINS, { error: `An organization has at most ${MAX_ORGANIZATION_DOMAINS} domains` })
  .refine((list) => new Set(list).size === list.length, { error: 'Each domain may be listed once' });

/** A Go duration from 1m to 8760h, or empty (the project's session lifespan applies). */
const sessionLifespanSchema = z
  .string()
  .trim()
  .max(32, { error: 'A lifespan has at most 32 characters' })
  .regex(/^$|^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/, { error: 'Use a duration such as 30m, 24h or 720h' });

/** OrganizationBody as the local stack takes it (create: a label is required; update: what is given changes). */
export const organizationBody = conformsTo<OrganizationBody>()(
  z.object({
    label: labelSchema.optional(),
    domains: organizationDomainsSchema.optional(),
    default_region: regionSchema.optional(),
    session_lifespan: sessionLifespanSchema.optional(),
  }),
);
export type OrganizationBodyInput = z.infer<typeof organizationBody>;

export const organizationListQuery = z.object({
  page_size: z.coerce
    .number({ error: 'page_size must be a whole number from 1 to 1000' })
    .int({ error: 'page_size must be a whole number from 1 to 1000' })
    .min(1, { error: 'page_size must be a whole number from 1 to 1000' })
    .max(1000, { error: 'page_size must be a whole number from 1 to 1000' })
    .default(250),
  page_token: z.string().max(512, { error: 'page_token is too long' }).optional(),
  domain: z.string().trim().max(253, { error: 'domain has at most 253 characters' }).optional(),
});

// ---- onboarding portal links ----

export const onboardingPortalLinkSchema = conformsTo<OnboardingPortalLink>()(
  z.looseObject({
    id: z.string(),
    organization_id: z.string(),
    project_id: z.string(),
    value: z.string(),
    expires_at: z.string(),
    created_at: z.string().optional(),
    enable_sso: z.boolean().optional(),
    enable_scim: z.boolean().optional(),
    custom_hostname_id: z.string().nullable().optional(),
  }),
);
export type OnboardingPortalLinkView = z.infer<typeof onboardingPortalLinkSchema>;
export const onboardingPortalLinksResponseSchema = conformsTo<OrganizationOnboardingPortalLinksResponse>()(z.object({ links: z.array(onboardingPortalLinkSchema) }));

const expiresAtSchema = z.iso.datetime({ offset: true, error: 'expires_at must be an RFC 3339 date and time' });

export const createOnboardingLinkBody = conformsTo<CreateOrganizationOnboardingPortalLinkBody>()(
  z.object({
    enable_sso: z.boolean({ error: 'enable_sso is required (true or false)' }),
    enable_scim: z.boolean({ error: 'enable_scim is required (true or false)' }),
    expires_at: expiresAtSchema.optional(),
    custom_hostname_id: uuidSchema.nullable().optional(),
  }),
);
export const updateOnboardingLinkBody = conformsTo<UpdateOrganizationOnboardingPortalLinkBody>()(
  z.object({
    enable_sso: z.boolean({ error: 'enable_sso is required (true or false)' }),
    enable_scim: z.boolean({ error: 'enable_scim is required (true or false)' }),
    expires_at: expiresAtSchema.optional(),
  }),
);

// ---- procedures ----
const projectId = uuidSchema;
const organizationId = uuidSchema;

export const organizationsListInput = z.object({
  projectId,
  pageSize: z.number().int().min(1).max(1000).optional(),
  pageToken: z.string().min(1).max(512).optional(),
  domain: z.string().trim().max(253, { error: 'A domain has at most 253 characters' }).optional(),
});
export const organizationInput = z.object({ projectId, organizationId });
export const createOrganizationInput = z.object({
  projectId,
  label: labelSchema,
  domains: organizationDomainsSchema.default([]),
});
export const updateOrganizationInput = z.object({
  projectId,
  organizationId,
  label: labelSchema.optional(),
  domains: organizationDomainsSchema.optional(),
});
export const organizationListOutput = listOrganizationsResponseSchema;
export const organizationOutput = organizationSchema;

/** An onboarding link lasts from one hour to 90 days; a week unless said otherwise. */
export const ONBOARDING_LINK_MAX_DAYS = 90;
export const onboardingLinksInput = organizationInput;
export const createOnboardingLinkInput = z.object({
  projectId,
  organizationId,
  enableSso: z.boolean().default(true),
  enableScim: z.boolean().default(false),
  expiresAt: expiresAtSchema.optional(),
});
export const updateOnboardingLinkInput = z.object({
  projectId,
  organizationId,
  linkId: uuidSchema,
  enableSso: z.boolean(),
  enableScim: z.boolean(),
  expiresAt: expiresAtSchema.optional(),
});
export const onboardingLinkInput = z.object({ projectId, organizationId, linkId: uuidSchema });
export const onboardingLinksOutput = onboardingPortalLinksResponseSchema;
export const onboardingLinkOutput = onboardingPortalLinkSchema;
export const organizationsOkOutput = z.object({ ok: z.literal(true) });

/** How many identities belong to an organization; `more` when there are more than the count read. */
export const organizationMembersOutput = z.object({ count: z.number().int().nonnegative(), more: z.boolean() });

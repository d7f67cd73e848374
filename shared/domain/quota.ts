import { z } from 'zod';
import { uuidSchema } from '../schemas/common';

/** Spec §9: quota feature keys by the spec's groups, spelled as the control plane's quotaUsage enum. */
export const QUOTA_FEATURE_GROUPS = {
  projectsAndUsers: ['production_projects', 'staging_projects', 'development_projects', 'daily_active_users'],
  domainsStreamsAndSeats: ['custom_domains', 'event_streams', 'event_stream_events', 'collaborator_seats'],
  platform: [
    'sla',
    'edge_cache',
    'branding_themes',
    'zendesk_support',
    'zendesk_support_on_call',
    'project_metrics',
    'project_metrics_time_window',
    'project_metrics_events_history',
    'organizations',
    'rop_grant',
    'concierge_onboarding',
    'credit',
    'm2m_token_issuance',
    'permission_checks',
    'captcha',
    'identity_search_api',
  ],
  dataLocation: ['data_location_global', 'data_location_us', 'data_location_asiane', 'data_location_regional'],
  federationAndProvisioning: [
    'saml_sp',
    'saml_idp',
    'auto_link_policy',
    'scim_clients',
    'default_smtp_email_customization',
    'onboarding_portal',
  ],
  /** Self-service flows, identity create/import/list, session, introspection, recovery and SCIM. */
  rateLimitTiers: [
    'update_self_service_registration_rate_limit_tier',
    'update_self_service_recovery_rate_limit_tier',
    'update_self_service_settings_rate_limit_tier',
    'update_self_service_verification_rate_limit_tier',
    'identities_create_rate_limit_tier',
    'identities_import_rate_limit_tier',
    'identities_list_rate_limit_tier',
    'session_rate_limit_tier',
    'oauth2_introspect_rate_limit_tier',
    'create_recovery_admin_rate_limit_tier',
    'scim_rate_limit_tier',
  ],
} as const;

export type QuotaFeatureGroup = keyof typeof QUOTA_FEATURE_GROUPS;

export const QUOTA_FEATURES = [
  ...QUOTA_FEATURE_GROUPS.projectsAndUsers,
  ...QUOTA_FEATURE_GROUPS.domainsStreamsAndSeats,
  ...QUOTA_FEATURE_GROUPS.platform,
  ...QUOTA_FEATURE_GROUPS.dataLocation,
  ...QUOTA_FEATURE_GROUPS.federationAndProvisioning,
  ...QUOTA_FEATURE_GROUPS.rateLimitTiers,
] as const;

export const quotaFeatureSchema = z.enum(QUOTA_FEATURES);
export type QuotaFeature = z.infer<typeof quotaFeatureSchema>;

/** The group a feature key belongs to. */
export function quotaFeatureGroup(feature: QuotaFeature): QuotaFeatureGroup {
  const groups = Object.keys(QUOTA_FEATURE_GROUPS) as QuotaFeatureGroup[];
  return groups.find((g) => (QUOTA_FEATURE_GROUPS[g] as readonly string[]).includes(feature))!;
}

export function isRateLimitTierFeature(feature: string): boolean {
  return feature.endsWith('_rate_limit_tier');
}

/**
 * The control plane's quotaUsage (GET /quota/{project|workspace}/{id}/{feature}). `feature` stays a
 * string on the wire: the control plane knows more keys than the console asks about.
 * `additional_price` is the price per additional unit in cents, as a string.
 */
export const quotaUsageSchema = z.object({
  feature: z.string().min(1),
  included: z.number().int(),
  used: z.number().int(),
  is_unlimited: z.boolean(),
  can_use_more: z.boolean(),
  feature_available: z.boolean(),
  additional_price: z.string(),
});
export type QuotaUsage = z.infer<typeof quotaUsageSchema>;

/** Procedure inputs: which quota to read. */
export const projectQuotaInput = z.object({ projectId: uuidSchema, feature: quotaFeatureSchema });
export const workspaceQuotaInput = z.object({ workspace: uuidSchema, feature: quotaFeatureSchema });

/** Units still available under a quota; Infinity when unlimited, 0 when the feature is unavailable. */
export function quotaRemaining(usage: QuotaUsage): number {
  if (!usage.feature_available) return 0;
  if (usage.is_unlimited) return Number.POSITIVE_INFINITY;
  return Math.max(0, usage.included - usage.used);
}

/** Metered features whose use is counted over the calendar month (UTC): the limits page says "this month". */
export const MONTHLY_METERED_FEATURES = ['permission_checks', 'm2m_token_issuance', 'event_stream_events'] as const;

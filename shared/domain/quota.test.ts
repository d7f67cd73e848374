import { describe, expect, it } from 'vitest';
import {
  isRateLimitTierFeature,
  projectQuotaInput,
  QUOTA_FEATURE_GROUPS,
  QUOTA_FEATURES,
  quotaFeatureGroup,
  quotaFeatureSchema,
  quotaRemaining,
  quotaUsageSchema,
  workspaceQuotaInput,
  type QuotaUsage,
} from './quota';

const uuid = '6b9f4a3c-1d2e-4f50-8a1b-2c3d4e5f6a7b';

describe('quota feature keys', () => {
  it.each([
    ['projectsAndUsers', ['production_projects', 'staging_projects', 'development_projects', 'daily_active_users']],
    ['domainsStreamsAndSeats', ['custom_domains', 'event_streams', 'event_stream_events', 'collaborator_seats']],
    ['dataLocation', ['data_location_global', 'data_location_us', 'data_location_asiane', 'data_location_regional']],
    [
      'federationAndProvisioning',
      ['saml_sp', 'saml_idp', 'auto_link_policy', 'scim_clients', 'default_smtp_email_customization', 'onboarding_portal'],
    ],
  ] as const)('%s holds the spec keys', (group, keys) => {
    expect(QUOTA_FEATURE_GROUPS[group]).toEqual(keys);
  });

  it.each([
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
  ])('platform holds %s', (key) => {
    expect(quotaFeatureGroup(quotaFeatureSchema.parse(key))).toBe('platform');
  });

  it.each([
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
  ])('rate-limit tier %s', (key) => {
    expect(quotaFeatureGroup(quotaFeatureSchema.parse(key))).toBe('rateLimitTiers');
    expect(isRateLimitTierFeature(key)).toBe(true);
  });

  it('lists each key once, all groups together', () => {
    expect(new Set(QUOTA_FEATURES).size).toBe(QUOTA_FEATURES.length);
    expect(QUOTA_FEATURES).toHaveLength(4 + 4 + 16 + 4 + 6 + 11);
    const tiers = QUOTA_FEATURES.filter((k) => isRateLimitTierFeature(k));
    expect(tiers).toEqual(QUOTA_FEATURE_GROUPS.rateLimitTiers);
  });

  it.each(['region_eu', 'data_location_eu', 'Custom_domains', '', 'support'])('refuses %j', (key) => {
    expect(quotaFeatureSchema.safeParse(key).success).toBe(false);
  });
});

describe('quotaUsageSchema', () => {
  const usage: QuotaUsage = {
    feature: 'custom_domains',
    included: 4,
    used: 1,
    is_unlimited: false,
    can_use_more: true,
    feature_available: true,
    additional_price: '0',
  };

  it.each([
    ['a full usage', {}, true],
    ['a feature the console does not ask about', { feature: 'talos_api_keys' }, true],
    ['a numeric additional price', { additional_price: 7 }, false],
    ['a fractional count', { used: 1.5 }, false],
    ['a missing flag', { can_use_more: undefined }, false],
    ['an empty feature', { feature: '' }, false],
  ])('%s → valid %s', (_name, patch, valid) => {
    expect(quotaUsageSchema.safeParse({ ...usage, ...patch }).success).toBe(valid);
  });

  it.each([
    [{}, 3],
    [{ used: 4 }, 0],
    [{ used: 9 }, 0],
    [{ is_unlimited: true }, Number.POSITIVE_INFINITY],
    [{ feature_available: false, is_unlimited: true }, 0],
  ])('quotaRemaining(%j) → %d', (patch, expected) => {
    expect(quotaRemaining({ ...usage, ...patch })).toBe(expected);
  });
});

describe('quota inputs', () => {
  it.each([
    [projectQuotaInput, { projectId: uuid, feature: 'custom_domains' }, true],
    [projectQuotaInput, { projectId: 'nope', feature: 'custom_domains' }, false],
    [projectQuotaInput, { projectId: uuid, feature: 'talos_api_keys' }, false],
    [workspaceQuotaInput, { workspace: uuid, feature: 'collaborator_seats' }, true],
    [workspaceQuotaInput, { workspace: uuid }, false],
  ])('%#: %j → %s', (schema, input, valid) => {
    expect(schema.safeParse(input).success).toBe(valid);
  });
});

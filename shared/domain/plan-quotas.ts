import type { PlanId } from '../schemas/plans';
import type { QuotaFeature } from './quota';

/** What a plan includes of a feature: a number of units, no limit, or not the feature at all. */
export type PlanLimit = number | 'unlimited' | 'unavailable';

/** The plans from the cheapest up: the order an upgrade prompt searches. */
export const PLANS_BY_PRICE: readonly PlanId[] = ['Develop@0', 'Production@0', 'Growth@0', 'enterprise'];

type Row = Record<PlanId, PlanLimit>;
const row = (develop: PlanLimit, production: PlanLimit, growth: PlanLimit, enterprise: PlanLimit = 'unlimited'): Row => ({
  'Develop@0': develop,
  'Production@0': production,
  'Growth@0': growth,
  enterprise,
});
const ALL = row('unlimited', 'unlimited', 'unlimited');
const NO = 'unavailable' as const;
/** Rate-limit tiers: the higher the tier, the more requests a second. */
const TIERS = row(1, 2, 3, 4);

/**
 * Every spec §9 quota feature per plan, in one table. The spec's numbers: team members 1/5/20, custom
 * domains 0/4/7 (Growth's "plus one per tenant" is left to the tenant count), 2 production projects on
 * Growth, credit $21/$255, SLA, dedicated support and concierge onboarding on Growth. Where the spec is
 * silent, these are our choices: Production includes one production project and Develop none; staging and
 * development projects, daily active users, permission checks and machine-to-machine tokens are unlimited
 * (paid plans pay for use); event streams, organizations, SAML, SCIM and the onboarding portal start at
 * Growth; captcha, identity search and SMTP template customization at Production; the SAML identity
 * provider, on-call support and regional data locations are Enterprise only. Metrics keep 1/30/90/365 days.
 * Enterprise is unlimited unless stated.
 */
export const PLAN_QUOTAS: Record<QuotaFeature, Row> = {
  production_projects: row(NO, 1, 2),
  staging_projects: ALL,
  development_projects: ALL,
  daily_active_users: ALL,
  custom_domains: row(NO, 4, 7),
  event_streams: row(NO, NO, 1),
  event_stream_events: row(NO, NO, 'unlimited'),
  collaborator_seats: row(1, 5, 20),
  sla: row(NO, NO, 'unlimited'),
  edge_cache: row(NO, NO, 'unlimited'),
  branding_themes: row(1, 5, 'unlimited'),
  zendesk_support: row(NO, 'unlimited', 'unlimited'),
  zendesk_support_on_call: row(NO, NO, NO),
  project_metrics: ALL,
  project_metrics_time_window: row(1, 30, 90, 365),
  project_metrics_events_history: row(1, 30, 90, 365),
  organizations: row(NO, NO, 10),
  rop_grant: row(NO, NO, 'unlimited'),
  concierge_onboarding: row(NO, NO, 'unlimited'),
  credit: row(NO, 21, 255, 255),
  m2m_token_issuance: ALL,
  permission_checks: ALL,
  captcha: row(NO, 'unlimited', 'unlimited'),
  identity_search_api: row(NO, 'unlimited', 'unlimited'),
  data_location_global: ALL,
  data_location_us: row(NO, NO, NO),
  data_location_asiane: row(NO, NO, NO),
  data_location_regional: row(NO, NO, NO),
  saml_sp: row(NO, NO, 'unlimited'),
  saml_idp: row(NO, NO, NO),
  auto_link_policy: row(NO, NO, 'unlimited'),
  scim_clients: row(NO, NO, 1),
  default_smtp_email_customization: row(NO, 'unlimited', 'unlimited'),
  onboarding_portal: row(NO, NO, 'unlimited'),
  update_self_service_registration_rate_limit_tier: TIERS,
  update_self_service_recovery_rate_limit_tier: TIERS,
  update_self_service_settings_rate_limit_tier: TIERS,
  update_self_service_verification_rate_limit_tier: TIERS,
  identities_create_rate_limit_tier: TIERS,
  identities_import_rate_limit_tier: TIERS,
  identities_list_rate_limit_tier: TIERS,
  session_rate_limit_tier: TIERS,
  oauth2_introspect_rate_limit_tier: TIERS,
  create_recovery_admin_rate_limit_tier: TIERS,
  scim_rate_limit_tier: TIERS,
};

export function planLimit(plan: PlanId, feature: string): PlanLimit {
  // Not a quota feature at all: nothing limits it.
  return (PLAN_QUOTAS as Partial<Record<string, Row>>)[feature]?.[plan] ?? 'unlimited';
}

/** Whether `plan` allows `units` of `feature` in all (the units already used included). */
export function planAllows(plan: PlanId, feature: string, units: number): boolean {
  const limit = planLimit(plan, feature);
  if (limit === 'unavailable') return false;
  return limit === 'unlimited' || units <= limit;
}

/** The cheapest plan that allows `units` of `feature`, or null when none does. */
export function cheapestPlanFor(feature: string, units = 1): PlanId | null {
  return PLANS_BY_PRICE.find((plan) => planAllows(plan, feature, units)) ?? null;
}

/**
 * How many days of a log the plan keeps (the audit log reads it): the plan's events history
 * (`project_metrics_events_history`), or null when it keeps everything.
 */
export function historyDays(plan: PlanId): number | null {
  const limit = planLimit(plan, 'project_metrics_events_history');
  return typeof limit === 'number' ? limit : null;
}

/** The longest history any plan keeps, in days: what is older is kept by none. */
export const LONGEST_HISTORY_DAYS = Math.max(...PLANS_BY_PRICE.map((plan) => historyDays(plan) ?? 0));

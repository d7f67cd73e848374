import {
  LEGACY_PLAN_IDS,
  PLAN_IDS,
  type Plan,
  type PlanFeature,
  type PlanId,
  type Subscription,
  type UpstreamSubscription,
} from '../schemas/plans';

const DAU_DISCLAIMER = 'Daily active users are measured daily and averaged monthly.';

/** Spec §9: the plan catalogue, prices in US dollars (monthly / yearly). */
export const PLAN_CATALOGUE: readonly Plan[] = [
  {
    id: 'Develop@0',
    legacyIds: ['Dev@0'],
    name: 'Develop',
    price: 0,
    priceYearly: 0,
    priceFrom: false,
    description: 'For building and testing your integration.',
    features: [
      { key: 'team_members', description: 'Team members', amount: 1 },
      { key: 'rate_limits', description: 'Rate limited', negative: true },
    ],
    colours: { accent: '#64748b', background: '#f1f5f9' },
  },
  {
    id: 'Production@0',
    legacyIds: ['Essentials@1', 'Essentials@2'],
    name: 'Production',
    price: 70,
    priceYearly: 770,
    priceFrom: false,
    description: 'For applications running in production.',
    features: [
      { key: 'credit', description: 'Included usage credit in US dollars', amount: 21 },
      {
        key: 'daily_active_users',
        description: 'Per daily active user',
        additionalPrice: 0.07,
        disclaimer: DAU_DISCLAIMER,
      },
      { key: 'permission_checks', description: 'Per 1,000 permission checks', additionalPrice: 0.07 },
      { key: 'custom_domains', description: 'Custom domains', amount: 4 },
      { key: 'team_members', description: 'Team members', amount: 5 },
    ],
    colours: { accent: '#2563eb', background: '#eff6ff' },
  },
  {
    id: 'Growth@0',
    legacyIds: ['Scale@0', 'Scale@1'],
    name: 'Growth',
    price: 850,
    priceYearly: 9350,
    priceFrom: false,
    description: 'For growing businesses serving many tenants.',
    features: [
      { key: 'credit', description: 'Included usage credit in US dollars', amount: 255 },
      {
        key: 'daily_active_users',
        description: 'Per daily active user',
        additionalPrice: 0.08,
        disclaimer: DAU_DISCLAIMER,
      },
      { key: 'permission_checks', description: 'Per 1,000 permission checks', additionalPrice: 0.08 },
      {
        key: 'custom_domains',
        description: 'Custom domains',
        amount: 7,
        disclaimer: 'Plus one custom domain per tenant.',
      },
      { key: 'team_members', description: 'Team members', amount: 20 },
      { key: 'production_projects', description: 'Production projects', amount: 2 },
      { key: 'dedicated_support', description: 'Dedicated support' },
      {
        key: 'concierge_onboarding',
        description: 'Concierge onboarding',
        disclaimer: 'On the annual plan.',
      },
    ],
    colours: { accent: '#7c3aed', background: '#f5f3ff' },
  },
  {
    id: 'enterprise',
    legacyIds: ['CustomAnaconda@0'],
    name: 'Enterprise',
    price: 3000,
    priceYearly: null,
    priceFrom: true,
    description: 'For organizations with custom requirements.',
    features: [],
    colours: { accent: '#0f172a', background: '#e2e8f0' },
  },
];

const byLowerId = new Map<string, PlanId>();
for (const id of PLAN_IDS) {
  byLowerId.set(id.toLowerCase(), id);
  byLowerId.set(id.split('@')[0]!.toLowerCase(), id);
}
for (const [legacy, id] of Object.entries(LEGACY_PLAN_IDS)) byLowerId.set(legacy.toLowerCase(), id);

/**
 * Spec §3: the current plan id for a current id, a legacy id or a bare plan name ("Develop").
 * Ids are matched without regard to case and surrounding spaces. Unknown ids → undefined.
 */
export function resolvePlanId(id: string | null | undefined): PlanId | undefined {
  if (typeof id !== 'string') return undefined;
  return byLowerId.get(id.trim().toLowerCase());
}

/** The catalogue entry for a current or legacy plan id, or undefined. */
export function findPlan(id: string | null | undefined): Plan | undefined {
  const resolved = resolvePlanId(id);
  return resolved === undefined ? undefined : PLAN_CATALOGUE.find((p) => p.id === resolved);
}

/** The feature `key` of a plan, or undefined when the plan does not list it. */
export function planFeature(plan: Plan, key: string): PlanFeature | undefined {
  return plan.features.find((f) => f.key === key);
}

/**
 * Spec §4: the plan name shown to users. None set → 'Develop'; the old Essentials and Scale plans →
 * 'Essentials (legacy)' / 'Scale (legacy)'; names starting with enterprise or custom → 'Enterprise'.
 * Matching ignores case and a trailing "@<version>". Other known ids show their catalogue name;
 * anything else is shown as given, without its version.
 */
export function planDisplayName(name?: string | null): string {
  const trimmed = (name ?? '').trim();
  if (trimmed === '') return 'Develop';
  const base = trimmed.replace(/@\d+$/, '');
  const lower = base.toLowerCase();
  if (lower === 'essentials') return 'Essentials (legacy)';
  if (lower === 'scale') return 'Scale (legacy)';
  if (lower.startsWith('enterprise') || lower.startsWith('custom')) return 'Enterprise';
  return findPlan(trimmed)?.name ?? base;
}

/** The spec §3 subscription (plan id, interval, currency) of the control plane's subscription object. */
export function toSubscription(upstream: UpstreamSubscription): Subscription {
  return { plan: upstream.current_plan, interval: upstream.current_interval, currency: upstream.currency };
}

/** The price of a plan for a billing interval; null when the catalogue states none. */
export function planPrice(plan: Plan, interval: 'monthly' | 'yearly'): number | null {
  return interval === 'monthly' ? plan.price : plan.priceYearly;
}

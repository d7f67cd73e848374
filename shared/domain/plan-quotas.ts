import type { PlanId } from '../schemas/plans';
import type { QuotaFeature } from './quota';

/** What a plan includes of a feature: a number of units, no limit, or not the feature at all. */
export type PlanLimit = number | 'unlimited' | 'unavailable';

/** The plans from the cheapest up: the order an upgrade prompt searches. */
export const PLANS_BY_PRICE: readonly PlanId[] = ['Develop@0', 'Production@0', 'Growth@0', 'enterprise'];

/**
 * Quotas per plan, in one table (spec §9 where it gives numbers: team members 1/5/20, custom domains 0/4/7
 * with Growth's "plus one per tenant" left to the tenant count, 2 production projects on Growth). Where the
 * spec is silent: Production includes one production project, Develop none; Enterprise is unlimited.
 * Features not listed are available without limit on every plan.
 */
export const PLAN_QUOTAS: Partial<Record<QuotaFeature, Record<PlanId, PlanLimit>>> = {
  collaborator_seats: { 'Develop@0': 1, 'Production@0': 5, 'Growth@0': 20, enterprise: 'unlimited' },
  custom_domains: { 'Develop@0': 'unavailable', 'Production@0': 4, 'Growth@0': 7, enterprise: 'unlimited' },
  production_projects: { 'Develop@0': 'unavailable', 'Production@0': 1, 'Growth@0': 2, enterprise: 'unlimited' },
  sla: { 'Develop@0': 'unavailable', 'Production@0': 'unavailable', 'Growth@0': 'unlimited', enterprise: 'unlimited' },
  concierge_onboarding: { 'Develop@0': 'unavailable', 'Production@0': 'unavailable', 'Growth@0': 'unlimited', enterprise: 'unlimited' },
};

export function planLimit(plan: PlanId, feature: string): PlanLimit {
  return PLAN_QUOTAS[feature as QuotaFeature]?.[plan] ?? 'unlimited';
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

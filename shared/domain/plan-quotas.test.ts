import { describe, expect, it } from 'vitest';
import { cheapestPlanFor, PLAN_QUOTAS, PLANS_BY_PRICE, planAllows, planLimit, type PlanLimit } from './plan-quotas';
import { QUOTA_FEATURES } from './quota';

describe('plan quotas', () => {
  it('gives the spec’s team members per plan: Develop 1, Production 5, Growth 20', () => {
    expect(planLimit('Develop@0', 'collaborator_seats')).toBe(1);
    expect(planLimit('Production@0', 'collaborator_seats')).toBe(5);
    expect(planLimit('Growth@0', 'collaborator_seats')).toBe(20);
    expect(planLimit('enterprise', 'collaborator_seats')).toBe('unlimited');
  });

  it('names the cheapest plan that allows a number of units', () => {
    expect(cheapestPlanFor('collaborator_seats', 1)).toBe('Develop@0');
    expect(cheapestPlanFor('collaborator_seats', 2)).toBe('Production@0');
    expect(cheapestPlanFor('collaborator_seats', 6)).toBe('Growth@0');
    expect(cheapestPlanFor('collaborator_seats', 21)).toBe('enterprise');
    expect(cheapestPlanFor('custom_domains', 1)).toBe('Production@0');
    expect(cheapestPlanFor('sla')).toBe('Growth@0');
  });

  it('lists every spec §9 feature key for every plan, each plan giving at least what the cheaper ones give', () => {
    const rank = (limit: PlanLimit) => (limit === 'unavailable' ? -1 : limit === 'unlimited' ? Infinity : limit);
    for (const feature of QUOTA_FEATURES) {
      const limits = PLANS_BY_PRICE.map((plan) => planLimit(plan, feature));
      expect(Object.keys(PLAN_QUOTAS[feature]).sort(), feature).toEqual([...PLANS_BY_PRICE].sort());
      for (let i = 1; i < limits.length; i++) expect(rank(limits[i]!), `${feature} on ${PLANS_BY_PRICE[i]}`).toBeGreaterThanOrEqual(rank(limits[i - 1]!));
    }
  });

  it('treats a key that is no quota feature as unlimited, and refuses what a plan lacks', () => {
    expect(planAllows('Develop@0', 'not_a_feature', 1000)).toBe(true);
    expect(planAllows('Develop@0', 'custom_domains', 1)).toBe(false);
    expect(planAllows('Develop@0', 'event_streams', 1)).toBe(false);
    expect(cheapestPlanFor('event_streams')).toBe('Growth@0');
    expect(cheapestPlanFor('saml_idp')).toBe('enterprise');
    expect(planLimit('Production@0', 'credit')).toBe(21);
  });
});

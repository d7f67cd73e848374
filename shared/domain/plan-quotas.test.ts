import { describe, expect, it } from 'vitest';
import { cheapestPlanFor, planAllows, planLimit } from './plan-quotas';

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

  it('treats a feature the table does not list as available without limit', () => {
    expect(planAllows('Develop@0', 'event_streams', 1000)).toBe(true);
    expect(planAllows('Develop@0', 'custom_domains', 1)).toBe(false);
  });
});

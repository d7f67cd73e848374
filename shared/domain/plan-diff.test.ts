import { describe, expect, it } from 'vitest';
import { featureText, intervalPrice, planChange } from './plan-diff';
import { findPlan } from './plans';

const develop = findPlan('Develop@0')!;
const production = findPlan('Production@0')!;
const growth = findPlan('Growth@0')!;

describe('plan changes', () => {
  it('says what an upgrade from Develop to Production gains and loses, and what it costs more', () => {
    const change = planChange(develop, production, 'monthly', 'eur');
    expect(change.direction).toBe('upgrade');
    expect(change.gained).toContain('5 Team members');
    expect(change.gained).toContain('4 Custom domains');
    expect(change.gained).toContain('No longer: rate limited');
    expect(change.lost).toEqual([]);
    expect(change.priceDifference).toBe(70);
    expect(planChange(develop, production, 'yearly', 'usd').priceDifference).toBe(770);
  });

  it('says what a downgrade loses, with the saving as a negative difference', () => {
    const change = planChange(growth, production, 'monthly', 'usd');
    expect(change.direction).toBe('downgrade');
    expect(change.lost).toEqual(expect.arrayContaining(['20 Team members', '2 Production projects']));
    expect(change.priceDifference).toBe(70 - 850);
    expect(planChange(production, develop, 'monthly', 'usd').lost).toContain('Rate limited');
  });

  it('takes the catalogue prices of a currency, and has none for a plan priced by contract', () => {
    expect(intervalPrice({ price: 70, priceYearly: 770, prices: { eur: { monthly: 65, yearly: 700 } } }, 'monthly', 'eur')).toBe(65);
    expect(planChange(growth, findPlan('enterprise')!, 'yearly', 'usd').priceDifference).toBeNull();
    expect(featureText({ key: 'x', description: 'Per 1,000 checks', additionalPrice: 0.07 })).toBe('Per 1,000 checks: $0.07');
  });
});

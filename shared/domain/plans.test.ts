import { describe, expect, it } from 'vitest';
import { planSchema, type Plan } from '../schemas/plans';
import { findPlan, PLAN_CATALOGUE, planDisplayName, planFeature, planPrice, resolvePlanId, toSubscription } from './plans';

const plan = (id: string): Plan => findPlan(id)!;

describe('resolvePlanId', () => {
  it.each([
    ['Develop@0', 'Develop@0'],
    ['Production@0', 'Production@0'],
    ['Growth@0', 'Growth@0'],
    ['enterprise', 'enterprise'],
    ['Dev@0', 'Develop@0'],
    ['Essentials@1', 'Production@0'],
    ['Essentials@2', 'Production@0'],
    ['Scale@0', 'Growth@0'],
    ['Scale@1', 'Growth@0'],
    ['CustomAnaconda@0', 'enterprise'],
    ['Develop', 'Develop@0'],
    ['Production', 'Production@0'],
    ['growth@0', 'Growth@0'],
    ['ENTERPRISE', 'enterprise'],
    [' Dev@0 ', 'Develop@0'],
    ['customanaconda@0', 'enterprise'],
  ])('%j → %s', (id, expected) => {
    expect(resolvePlanId(id)).toBe(expected);
  });

  it.each([[null], [undefined], [''], ['Dev@1'], ['Essentials@0'], ['Essentials'], ['Scale@2'], ['Develop@1'], ['free']])(
    '%j → undefined',
    (id) => {
      expect(resolvePlanId(id)).toBeUndefined();
    },
  );
});

describe('PLAN_CATALOGUE', () => {
  it('holds one valid entry per plan id, in order', () => {
    expect(PLAN_CATALOGUE.map((p) => p.id)).toEqual(['Develop@0', 'Production@0', 'Growth@0', 'enterprise']);
    for (const p of PLAN_CATALOGUE) expect(planSchema.parse(p)).toEqual(p);
  });

  it.each([
    ['Develop@0', 'Develop', 0, 0, false, ['Dev@0']],
    ['Production@0', 'Production', 70, 770, false, ['Essentials@1', 'Essentials@2']],
    ['Growth@0', 'Growth', 850, 9350, false, ['Scale@0', 'Scale@1']],
    ['enterprise', 'Enterprise', 3000, null, true, ['CustomAnaconda@0']],
  ])('%s: %s at %d / %j (from: %s)', (id, name, price, yearly, from, legacy) => {
    const p = plan(id);
    expect([p.name, p.price, p.priceYearly, p.priceFrom, p.legacyIds]).toEqual([name, price, yearly, from, legacy]);
    expect(planPrice(p, 'monthly')).toBe(price);
    expect(planPrice(p, 'yearly')).toBe(yearly);
  });

  it.each([
    ['Develop@0', 'team_members', { amount: 1 }],
    ['Develop@0', 'rate_limits', { negative: true }],
    ['Production@0', 'credit', { amount: 21 }],
    ['Production@0', 'daily_active_users', { additionalPrice: 0.07 }],
    ['Production@0', 'permission_checks', { additionalPrice: 0.07 }],
    ['Production@0', 'custom_domains', { amount: 4 }],
    ['Production@0', 'team_members', { amount: 5 }],
    ['Growth@0', 'credit', { amount: 255 }],
    ['Growth@0', 'daily_active_users', { additionalPrice: 0.08 }],
    ['Growth@0', 'permission_checks', { additionalPrice: 0.08 }],
    ['Growth@0', 'custom_domains', { amount: 7, disclaimer: 'Plus one custom domain per tenant.' }],
    ['Growth@0', 'team_members', { amount: 20 }],
    ['Growth@0', 'production_projects', { amount: 2 }],
    ['Growth@0', 'dedicated_support', { description: 'Dedicated support' }],
    ['Growth@0', 'concierge_onboarding', { disclaimer: 'On the annual plan.' }],
  ])('%s has %s %j', (id, key, expected) => {
    expect(planFeature(plan(id), key)).toMatchObject(expected);
  });

  it.each([
    ['Develop@0', 'credit'],
    ['Production@0', 'production_projects'],
    ['Production@0', 'dedicated_support'],
    ['Production@0', 'concierge_onboarding'],
  ])('%s has no %s', (id, key) => {
    expect(planFeature(plan(id), key)).toBeUndefined();
  });

  it.each([['Production@0'], ['Growth@0']])('%s explains how daily active users are counted', (id) => {
    expect(planFeature(plan(id), 'daily_active_users')?.disclaimer).toBe(
      'Daily active users are measured daily and averaged monthly.',
    );
  });

  it.each([['Scale@1', 'Growth@0'], ['Essentials@1', 'Production@0'], ['nope', undefined]])(
    'findPlan(%j) → %s',
    (id, expected) => {
      expect(findPlan(id)?.id).toBe(expected);
    },
  );
});

describe('planDisplayName', () => {
  it.each([
    [undefined, 'Develop'],
    [null, 'Develop'],
    ['', 'Develop'],
    ['   ', 'Develop'],
    ['Essentials', 'Essentials (legacy)'],
    ['essentials', 'Essentials (legacy)'],
    ['Essentials@1', 'Essentials (legacy)'],
    ['Essentials@2', 'Essentials (legacy)'],
    ['Scale', 'Scale (legacy)'],
    ['SCALE@0', 'Scale (legacy)'],
    ['Scale@1', 'Scale (legacy)'],
    ['enterprise', 'Enterprise'],
    ['Enterprise', 'Enterprise'],
    ['enterprise-acme', 'Enterprise'],
    ['EnterprisePlus@3', 'Enterprise'],
    ['custom', 'Enterprise'],
    ['CustomAnaconda@0', 'Enterprise'],
    ['Custom-Acme', 'Enterprise'],
    ['Develop@0', 'Develop'],
    ['Dev@0', 'Develop'],
    ['Production@0', 'Production'],
    ['production', 'Production'],
    ['Growth@0', 'Growth'],
    ['Startup@4', 'Startup'],
    ['Scaleway', 'Scaleway'],
    ['my-enterprise', 'my-enterprise'],
  ])('%j → %s', (name, expected) => {
    expect(planDisplayName(name)).toBe(expected);
  });
});

describe('toSubscription', () => {
  it('keeps plan id, interval and currency', () => {
    expect(
      toSubscription({ id: 's', current_plan: 'Scale@1', current_interval: 'yearly', currency: 'eur', status: 'active' }),
    ).toEqual({ plan: 'Scale@1', interval: 'yearly', currency: 'eur' });
  });
});

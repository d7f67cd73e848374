import { describe, expect, it } from 'vitest';
import {
  LEGACY_PLAN_IDS,
  PLAN_IDS,
  planFeatureSchema,
  planIdSchema,
  planSchema,
  subscriptionInputSchema,
  subscriptionSchema,
  upstreamSubscriptionSchema,
} from './plans';

describe('plan ids', () => {
  it('are the spec ids', () => {
    expect(PLAN_IDS).toEqual(['Develop@0', 'Production@0', 'Growth@0', 'enterprise']);
  });

  it.each(['Dev@0', 'Essentials@1', 'Scale@0', 'develop@0', 'Enterprise', ''])('planIdSchema refuses %j', (id) => {
    expect(planIdSchema.safeParse(id).success).toBe(false);
  });

  it('maps every legacy id the spec names', () => {
    expect(LEGACY_PLAN_IDS).toEqual({
      'Dev@0': 'Develop@0',
      'Essentials@1': 'Production@0',
      'Essentials@2': 'Production@0',
      'Scale@0': 'Growth@0',
      'Scale@1': 'Growth@0',
      'CustomAnaconda@0': 'enterprise',
    });
  });
});

describe('planFeatureSchema', () => {
  it.each([
    [{ key: 'k', description: 'd' }, true],
    [{ key: 'k', description: 'd', amount: 5 }, true],
    [{ key: 'k', description: 'd', additionalPrice: 0.07, disclaimer: 'x' }, true],
    [{ key: 'k', description: 'd', negative: true }, true],
    [{ key: 'k', description: 'd', amount: 5, additionalPrice: 1 }, false],
    [{ key: 'k', description: 'd', amount: -1 }, false],
    [{ key: 'k', description: '' }, false],
  ])('%j → valid %s', (feature, valid) => {
    expect(planFeatureSchema.safeParse(feature).success).toBe(valid);
  });
});

describe('planSchema', () => {
  const base = {
    id: 'Develop@0',
    legacyIds: ['Dev@0'],
    name: 'Develop',
    price: 0,
    priceYearly: 0,
    priceFrom: false,
    description: 'x',
    features: [],
    colours: { accent: '#000000', background: '#FFFFFF' },
  };
  it.each([
    ['the base entry', {}, true],
    ['a null yearly price', { priceYearly: null }, true],
    ['an unknown legacy id', { legacyIds: ['Dev@1'] }, false],
    ['a negative price', { price: -1 }, false],
    ['a bad colour', { colours: { accent: 'red', background: '#ffffff' } }, false],
  ])('%s → valid %s', (_name, patch, valid) => {
    expect(planSchema.safeParse({ ...base, ...patch }).success).toBe(valid);
  });
});

describe('subscription schemas', () => {
  it.each([
    [{ plan: 'Production@0', interval: 'monthly', currency: 'usd' }, true],
    [{ plan: 'Essentials@2', interval: 'yearly', currency: 'eur' }, true],
    [{ plan: '', interval: 'yearly', currency: 'eur' }, false],
    [{ plan: 'Growth@0', interval: 'weekly', currency: 'usd' }, false],
    [{ plan: 'Growth@0', interval: 'monthly', currency: 'gbp' }, false],
  ])('subscriptionSchema %j → %s', (value, valid) => {
    expect(subscriptionSchema.safeParse(value).success).toBe(valid);
  });

  it.each([
    [{ plan: 'Growth@0', interval: 'yearly' }, { plan: 'Growth@0', interval: 'yearly', currency: 'usd' }],
    [
      { plan: 'enterprise', interval: 'monthly', currency: 'eur' },
      { plan: 'enterprise', interval: 'monthly', currency: 'eur' },
    ],
  ])('subscriptionInputSchema %j → %j', (value, parsed) => {
    expect(subscriptionInputSchema.parse(value)).toEqual(parsed);
  });

  it('subscriptionInputSchema refuses a legacy plan id', () => {
    expect(subscriptionInputSchema.safeParse({ plan: 'Scale@1', interval: 'monthly' }).success).toBe(false);
  });

  it('upstreamSubscriptionSchema keeps unknown fields', () => {
    const value = {
      id: 's1',
      currency: 'usd',
      current_interval: 'monthly',
      current_plan: 'Production@0',
      status: 'active',
      ongoing_stripe_checkout_id: 'cs_1',
    };
    expect(upstreamSubscriptionSchema.parse(value)).toEqual(value);
  });
});

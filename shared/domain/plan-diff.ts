import type { Plan, PlanFeature } from '../schemas/plans';
import { formatMoney, formatNumber } from './format';
import { PLANS_BY_PRICE } from './plan-quotas';

export type Interval = 'monthly' | 'yearly';

/** A feature line as a sentence: "5 Team members", "Per daily active user: $0.07", "Rate limited". */
export function featureText(feature: PlanFeature): string {
  if (feature.amount !== undefined) return `${formatNumber(feature.amount)} ${feature.description}`;
  if (feature.additionalPrice !== undefined) return `${feature.description}: ${formatMoney(Math.round(feature.additionalPrice * 100), 'usd')}`;
  return feature.description;
}

/** The price of a plan for an interval in whole units of its currency; null when the catalogue has none (priced by contract). */
export function intervalPrice(plan: Pick<Plan, 'price' | 'priceYearly'> & { prices?: Record<string, { monthly: number; yearly: number | null }> }, interval: Interval, currency: string): number | null {
  const priced = plan.prices?.[currency];
  if (priced) return interval === 'monthly' ? priced.monthly : priced.yearly;
  return interval === 'monthly' ? plan.price : plan.priceYearly;
}

export interface PlanChange {
  direction: 'upgrade' | 'downgrade' | 'same';
  /** Features of the target plan the current one lacks or has less of, as sentences. */
  gained: string[];
  /** Features of the current plan the target lacks or has less of (limitations the target adds count too). */
  lost: string[];
  /** Target price minus current price for the interval; null when either is priced by contract. */
  priceDifference: number | null;
}

const key = (f: PlanFeature) => f.key;

/** What moving from `current` to `target` changes, for the confirmation before the change. */
export function planChange(current: Plan, target: Plan, interval: Interval, currency: string, prices?: Record<string, Record<string, { monthly: number; yearly: number | null }>>): PlanChange {
  const rank = (p: Plan) => PLANS_BY_PRICE.indexOf(p.id);
  const direction = rank(target) > rank(current) ? 'upgrade' : rank(target) < rank(current) ? 'downgrade' : 'same';
  const currentByKey = new Map(current.features.map((f) => [key(f), f]));
  const targetByKey = new Map(target.features.map((f) => [key(f), f]));
  const gained: string[] = [];
  const lost: string[] = [];
  for (const f of target.features) {
    const before = currentByKey.get(key(f));
    if (f.negative) {
      if (!before) lost.push(featureText(f));
      continue;
    }
    if (!before || before.negative || (f.amount !== undefined && (before.amount ?? 0) < f.amount)) gained.push(featureText(f));
  }
  for (const f of current.features) {
    const after = targetByKey.get(key(f));
    if (f.negative) {
      if (!after) gained.push(`No longer: ${featureText(f).toLowerCase()}`);
      continue;
    }
    if (!after || after.negative || (f.amount !== undefined && (after.amount ?? 0) < f.amount)) lost.push(featureText(f));
  }
  const withPrices = (p: Plan) => ({ ...p, ...(prices?.[p.id] ? { prices: prices[p.id] } : {}) });
  const from = intervalPrice(withPrices(current), interval, currency);
  const to = intervalPrice(withPrices(target), interval, currency);
  return { direction, gained, lost, priceDifference: from === null || to === null ? null : to - from };
}

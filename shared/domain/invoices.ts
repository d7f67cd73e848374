import type { BillingPeriod, InvoicesAnswer, UpstreamInvoices } from '../schemas/billing';
import type { PlanId } from '../schemas/plans';
import { formatMoney } from './format';
import { findPlan, planDisplayName, planFeature } from './plans';

/**
 * How usage is charged on a plan, in cents (spec §9): per daily active user (averaged over the month), per
 * 1,000 permission checks, and the credit included each month. Develop has no metered usage (it is rate
 * limited instead); Enterprise is priced by contract and charged here at Growth's rates and credit.
 */
export interface RateCard {
  perActiveUserCents: number;
  per1000ChecksCents: number;
  creditCents: number;
}

const cents = (dollars: number | undefined) => Math.round((dollars ?? 0) * 100);

export function rateCard(planId: PlanId): RateCard {
  const plan = findPlan(planId === 'enterprise' ? 'Growth@0' : planId);
  if (!plan) return { perActiveUserCents: 0, per1000ChecksCents: 0, creditCents: 0 };
  return {
    perActiveUserCents: cents(planFeature(plan, 'daily_active_users')?.additionalPrice),
    per1000ChecksCents: cents(planFeature(plan, 'permission_checks')?.additionalPrice),
    creditCents: cents(planFeature(plan, 'credit')?.amount),
  };
}

/** The base price of a plan for one billing interval, in cents (a yearly price the catalogue lacks is 12 months). */
export function basePriceCents(planId: PlanId, interval: 'monthly' | 'yearly'): number {
  const plan = findPlan(planId);
  if (!plan) return 0;
  if (interval === 'monthly') return cents(plan.price);
  return cents(plan.priceYearly ?? plan.price * 12);
}

export interface Period {
  start: Date;
  end: Date;
}

/** The month after `from`, on the same day of the month where it has one (31 Jan → 28/29 Feb → 31 Mar). */
export function addMonths(anchor: Date, months: number): Date {
  const y = anchor.getUTCFullYear();
  const m = anchor.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(anchor);
  d.setUTCFullYear(y, m, Math.min(anchor.getUTCDate(), lastDay));
  return d;
}

/**
 * Monthly usage periods from a subscription's start up to `now`: every period that has begun, oldest first.
 * Usage is measured per month whatever the interval; a yearly plan's base price falls in every twelfth.
 */
export function usagePeriods(anchor: Date, now: Date): Period[] {
  const periods: Period[] = [];
  for (let i = 0; ; i++) {
    const start = addMonths(anchor, i);
    if (start.getTime() > now.getTime()) break;
    periods.push({ start, end: addMonths(anchor, i + 1) });
  }
  return periods;
}

const DAY_MS = 86_400_000;
/** Whole UTC days from `from` to `to` (at least one). */
export const daysBetween = (from: Date, to: Date) => Math.max(1, Math.round((Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate()) - Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate())) / DAY_MS));

export interface UsageCharge {
  /** Daily active users averaged over the period's days, to two decimals. */
  averageActiveUsers: number;
  activeUsersCents: number;
  permissionChecks: number;
  permissionChecksCents: number;
  /** The included credit used against the usage (zero or negative). */
  creditCents: number;
  totalCents: number;
}

/**
 * The usage part of a period's bill: daily active users (Σ of each day's count / the period's days) at the
 * plan's rate, permission checks per thousand (pro rata, rounded to the cent), minus the
 * included credit, never below zero.
 */
export function usageCharge(rates: RateCard, usage: { activeUserDays: number; days: number; permissionChecks: number }): UsageCharge {
  const average = usage.activeUserDays / Math.max(1, usage.days);
  const averageActiveUsers = Math.round(average * 100) / 100;
  const activeUsersCents = Math.round(average * rates.perActiveUserCents);
  const permissionChecksCents = Math.round((usage.permissionChecks / 1000) * rates.per1000ChecksCents);
  const subtotal = activeUsersCents + permissionChecksCents;
  const creditCents = -Math.min(subtotal, rates.creditCents);
  return {
    averageActiveUsers,
    activeUsersCents,
    permissionChecks: usage.permissionChecks,
    permissionChecksCents,
    creditCents,
    totalCents: subtotal + creditCents,
  };
}

type UpstreamLine = { title?: string; description?: string; quantity?: number; unit_price?: string; amount_in_cent?: number };

/**
 * One invoice line as the billing pages show it. A credit (a negative unit price) says how much the plan
 * includes and how much of it is used ("$21.00 included, $4.20 used"), never "× 1"; a metered line says
 * its quantity at its unit price.
 */
export function invoiceLine(line: UpstreamLine, currency: string): BillingPeriod['invoices'][number]['lines'][number] {
  const unit = line.unit_price === undefined || line.unit_price.trim() === '' ? NaN : Number(line.unit_price);
  const unitPriceCents = Number.isFinite(unit) ? Math.round(unit * 100) : null;
  const amountCents = line.amount_in_cent ?? 0;
  let description = line.description ?? null;
  if (!description && unitPriceCents !== null && unitPriceCents < 0) {
    description = `${formatMoney(-unitPriceCents, currency)} included, ${formatMoney(Math.abs(amountCents), currency)} used`;
  }
  return { title: line.title ?? '', description, quantity: line.quantity ?? null, unitPriceCents, amountCents };
}

/** Ory's listInvoicesResponse as the billing pages show it: periods newest first, each with its invoices and total. */
export function toBillingPeriods(upstream: UpstreamInvoices): InvoicesAnswer {
  const periods: BillingPeriod[] = upstream.buckets.flatMap((bucket) => {
    const raw = [...(bucket.base_invoices ?? []), ...(bucket.usage_invoice ? [bucket.usage_invoice] : [])];
    const invoices = raw.flatMap((invoice) =>
      invoice.v1
        ? [
            {
              id: invoice.id,
              type: invoice.type,
              title: invoice.v1.title,
              status: invoice.v1.stripe_invoice_status ?? 'open',
              planName: invoice.v1.plan ? planDisplayName(invoice.v1.plan) : null,
              totalCents: invoice.v1.total_in_cent,
              lines: invoice.v1.items.map((line) => invoiceLine(line, invoice.v1?.currency ?? 'usd')),
            },
          ]
        : [],
    );
    if (!bucket.billing_period || invoices.length === 0) return [];
    const currency = raw.find((i) => i.v1)?.v1?.currency ?? 'usd';
    return [
      {
        start: bucket.billing_period.start,
        end: bucket.billing_period.end,
        // The upstream's clock decides what has closed: a draft is the open period's estimate.
        open: invoices.some((i) => i.status === 'draft'),
        currency,
        invoices,
        totalCents: invoices.reduce((sum, i) => sum + i.totalCents, 0),
      },
    ];
  });
  return { periods, nextPageToken: upstream.has_next_page && upstream.next_page_token ? upstream.next_page_token : null };
}


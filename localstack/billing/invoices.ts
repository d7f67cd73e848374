import { createHash } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { basePriceCents, daysBetween, rateCard, usageCharge, usagePeriods, type Period } from '../../shared/domain/invoices';
import { planDisplayName, resolvePlanId } from '../../shared/domain/plans';
import type { PlanId } from '../../shared/schemas/plans';
import type { Clock } from '../kernel/clock';
import { projects } from '../kernel/tables';
import { subscriptionChanges, subscriptions, type SubscriptionRow } from './schema';
import type { Queryable } from '../db/types';
import { dayOf, usageBetween } from './usage';

/*
 * Invoices are computed from what was measured, never stored: each monthly period since the subscription
 * began is charged the base price of the plan it ended on (the open period: the plan now in force; a yearly
 * plan every twelfth period) plus usage at that plan's rates (spec §9) minus the included credit. Closed
 * periods are `paid`; the open one is a `draft`, the estimate of the coming bill. Answers follow Ory's
 * listInvoicesResponse: buckets of a billing period with its base invoices and its usage invoice.
 */

interface PlanSpan {
  at: Date;
  plan: PlanId;
  interval: 'monthly' | 'yearly';
}

async function planHistory(q: Queryable, row: SubscriptionRow): Promise<PlanSpan[]> {
  const changes = await q.orm.select().from(subscriptionChanges).where(eq(subscriptionChanges.subscription_id, row.id)).orderBy(asc(subscriptionChanges.at));
  const spans = changes.map((c) => ({ at: c.at, plan: resolvePlanId(c.plan) ?? 'Develop@0', interval: c.interval as PlanSpan['interval'] }));
  if (spans.length === 0) spans.push({ at: row.created_at, plan: resolvePlanId(row.plan) ?? 'Develop@0', interval: row.interval as PlanSpan['interval'] });
  return spans;
}

/** The plan in force just before `at` (the first plan for anything earlier). */
const planBefore = (history: PlanSpan[], at: Date): PlanSpan => history.filter((h) => h.at.getTime() < at.getTime()).at(-1) ?? history[0]!;

/** The projects a subscription pays for: its project, or a workspace's projects that have no subscription of their own. */
async function coveredProjects(q: Queryable, row: SubscriptionRow): Promise<string[]> {
  if (row.project_id) return [row.project_id];
  const rows = await q.orm
    .select({ id: projects.id })
    .from(projects)
    .leftJoin(subscriptions, eq(subscriptions.project_id, projects.id))
    .where(and(eq(projects.workspace_id, row.workspace_id!), isNull(subscriptions.id)));
  return rows.map((r) => r.id);
}

const invoiceId = (subscriptionId: string, period: number, type: string) => {
  const h = createHash('sha256').update(`${subscriptionId}/${period}/${type}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

const dollars = (cents: number) => (cents / 100).toFixed(2);

export interface InvoicePage {
  buckets: unknown[];
  has_next_page: boolean;
  next_page_token: string;
}

function encodeIndex(index: number): string {
  return Buffer.from(JSON.stringify({ p: index })).toString('base64url');
}

/** The period index a page token names: null for the first page, 'invalid' for a token this server did not give. */
export function readInvoiceToken(token: string | undefined): number | null | 'invalid' {
  if (!token) return null;
  try {
    const raw = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { p?: unknown };
    return Number.isInteger(raw.p) && (raw.p as number) >= 0 ? (raw.p as number) : 'invalid';
  } catch {
    return 'invalid';
  }
}

/** One page of a subscription's billing periods, newest first. `from` is the index (newest = 0) to start at. */
export async function invoicePage(q: Queryable, clock: Clock, row: SubscriptionRow, pageSize: number, from: number): Promise<InvoicePage> {
  const now = clock.now();
  const history = await planHistory(q, row);
  const periods = usagePeriods(history[0]!.at, now);
  const newestFirst = periods.map((period, index) => ({ period, index })).reverse();
  const page = newestFirst.slice(from, from + pageSize);
  const covered = await coveredProjects(q, row);
  const buckets = [];
  for (const { period, index } of page) {
    buckets.push(await bucket(q, row, history, covered, period, index, now));
  }
  const more = from + pageSize < newestFirst.length;
  return { buckets, has_next_page: more, next_page_token: more ? encodeIndex(from + pageSize) : '' };
}

async function bucket(q: Queryable, row: SubscriptionRow, history: PlanSpan[], covered: string[], period: Period, index: number, now: Date) {
  const open = period.end.getTime() > now.getTime();
  const span = open ? history.at(-1)! : planBefore(history, period.end);
  const until = open ? now : period.end;
  const days = open ? daysBetween(period.start, now) + 1 : daysBetween(period.start, period.end);
  const toDay = open ? dayOf(new Date(now.getTime() + 86_400_000)) : dayOf(period.end);
  const usage = await usageBetween(q, covered, dayOf(period.start), toDay);
  const rates = rateCard(span.plan);
  const charge = usageCharge(rates, { activeUserDays: usage.activeUserDays, days, permissionChecks: usage.permissionChecks });
  const status = open ? 'draft' : 'paid';
  const billing_period = { start: period.start.toISOString(), end: period.end.toISOString() };
  const common = { currency: row.currency, plan: span.plan, billing_period, stripe_invoice_status: status };
  const name = planDisplayName(span.plan);
  const invoicedAt = (open ? now : until).toISOString();

  const base =
    span.interval === 'monthly' || index % 12 === 0
      ? [
          {
            id: invoiceId(row.id, index, 'base'),
            type: 'base' as const,
            invoiced_at: period.start.toISOString(),
            updated_at: invoicedAt,
            v1: {
              ...common,
              title: `${name} plan`,
              subtitle: span.interval === 'monthly' ? 'Monthly subscription' : 'Yearly subscription',
              items: [{ title: `${name} plan (${span.interval})`, quantity: 1, unit_price: dollars(basePriceCents(span.plan, span.interval)), amount_in_cent: basePriceCents(span.plan, span.interval) }],
              total_in_cent: basePriceCents(span.plan, span.interval),
            },
          },
        ]
      : [];
  const usageInvoice = {
    id: invoiceId(row.id, index, 'usage'),
    type: 'usage' as const,
    invoiced_at: invoicedAt,
    updated_at: invoicedAt,
    v1: {
      ...common,
      title: open ? 'Usage this period (estimate)' : 'Usage',
      subtitle: `${days} day${days === 1 ? '' : 's'} measured`,
      items: [
        {
          title: 'Daily active users',
          description: `Averaged over ${days} day${days === 1 ? '' : 's'}: ${charge.averageActiveUsers.toFixed(2)}`,
          quantity: Math.round(charge.averageActiveUsers),
          unit_price: dollars(rates.perActiveUserCents),
          amount_in_cent: charge.activeUsersCents,
        },
        {
          title: 'Permission checks',
          description: `${charge.permissionChecks} checks at ${dollars(rates.per1000ChecksCents)} per 1,000`,
          quantity: charge.permissionChecks,
          unit_price: dollars(rates.per1000ChecksCents),
          amount_in_cent: charge.permissionChecksCents,
        },
        { title: 'Included credit', quantity: 1, unit_price: dollars(-rates.creditCents), amount_in_cent: charge.creditCents },
      ],
      total_in_cent: charge.totalCents,
    },
  };
  return { billing_period, base_invoices: base, usage_invoice: usageInvoice };
}

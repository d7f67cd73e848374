import { describe, expect, it } from 'vitest';
import { formatMoney } from './format';
import { addMonths, basePriceCents, daysBetween, invoiceLine, rateCard, toBillingPeriods, usageCharge, usagePeriods } from './invoices';

describe('rate cards (spec §9)', () => {
  it('charges Production $0.07 and Growth $0.08 per user and per 1,000 checks, with $21 and $255 of credit', () => {
    expect(rateCard('Production@0')).toEqual({ perActiveUserCents: 7, per1000ChecksCents: 7, creditCents: 2100 });
    expect(rateCard('Growth@0')).toEqual({ perActiveUserCents: 8, per1000ChecksCents: 8, creditCents: 25500 });
    expect(rateCard('Develop@0')).toEqual({ perActiveUserCents: 0, per1000ChecksCents: 0, creditCents: 0 });
  });
  it('prices a plan per interval, a missing yearly price as twelve months', () => {
    expect(basePriceCents('Production@0', 'monthly')).toBe(7000);
    expect(basePriceCents('Growth@0', 'yearly')).toBe(935000);
    expect(basePriceCents('enterprise', 'yearly')).toBe(3_600_000);
  });
});

describe('usage charges', () => {
  it('averages daily active users over the period, charges checks per thousand, and uses the credit first', () => {
    const rates = rateCard('Production@0');
    // 300 users every day of a 30-day month: 300 × $0.07 = $21.00, all of it covered by the credit.
    expect(usageCharge(rates, { activeUserDays: 9000, days: 30, permissionChecks: 0 })).toMatchObject({ averageActiveUsers: 300, activeUsersCents: 2100, creditCents: -2100, totalCents: 0 });
    // 1,000 users a day and 2,500,000 checks: $70 + $175 − $21.
    expect(usageCharge(rates, { activeUserDays: 30_000, days: 30, permissionChecks: 2_500_000 })).toMatchObject({ activeUsersCents: 7000, permissionChecksCents: 17500, creditCents: -2100, totalCents: 22400 });
    expect(usageCharge(rates, { activeUserDays: 5, days: 30, permissionChecks: 5000 })).toMatchObject({ averageActiveUsers: 0.17, activeUsersCents: 1, permissionChecksCents: 35, totalCents: 0 });
  });
});

describe('periods', () => {
  it('keeps the day of the month where the month has it', () => {
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 1).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(addMonths(new Date('2026-01-31T10:00:00Z'), 2).toISOString()).toBe('2026-03-31T10:00:00.000Z');
    expect(addMonths(new Date('2026-11-15T00:00:00Z'), 2).toISOString()).toBe('2027-01-15T00:00:00.000Z');
  });
  it('lists every period that has begun, and counts whole days', () => {
    const periods = usagePeriods(new Date('2026-01-10T12:00:00Z'), new Date('2026-03-10T12:00:00Z'));
    expect(periods.map((p) => p.start.toISOString().slice(0, 10))).toEqual(['2026-01-10', '2026-02-10', '2026-03-10']);
    expect(daysBetween(periods[0]!.start, periods[0]!.end)).toBe(31);
    expect(daysBetween(periods[1]!.start, periods[1]!.end)).toBe(28);
  });
});

describe('invoices as the billing pages show them', () => {
  it('groups a bucket into a period with totals, the open one by its draft status, and pages by token', () => {
    const invoice = (type: 'base' | 'usage', total: number, status: string) => ({
      id: `${type}-${status}`,
      type,
      invoiced_at: '2026-01-01T00:00:00Z',
      v1: { title: type, currency: 'eur', plan: 'Production@0', total_in_cent: total, stripe_invoice_status: status, items: [{ title: 'Line', amount_in_cent: total }] },
    });
    const answer = toBillingPeriods({
      buckets: [
        { billing_period: { start: '2026-02-01T00:00:00Z', end: '2026-03-01T00:00:00Z' }, base_invoices: [invoice('base', 7000, 'draft')], usage_invoice: invoice('usage', 120, 'draft') },
        { billing_period: { start: '2026-01-01T00:00:00Z', end: '2026-02-01T00:00:00Z' }, base_invoices: [invoice('base', 7000, 'paid')], usage_invoice: invoice('usage', 0, 'paid') },
      ],
      has_next_page: true,
      next_page_token: 'next',
    });
    expect(answer.nextPageToken).toBe('next');
    expect(answer.periods.map((p) => [p.open, p.totalCents, p.currency])).toEqual([
      [true, 7120, 'eur'],
      [false, 7000, 'eur'],
    ]);
    expect(answer.periods[0]!.invoices[0]).toMatchObject({ planName: 'Production', lines: [{ title: 'Line', amountCents: 7000, description: null, quantity: null, unitPriceCents: null }] });
    expect(toBillingPeriods({ buckets: [], has_next_page: false, next_page_token: 'ignored' }).nextPageToken).toBeNull();
  });
  it('shows a credit line as what the plan includes and what is used, not as a quantity of one', () => {
    expect(invoiceLine({ title: 'Included credit', quantity: 1, unit_price: '-21.00', amount_in_cent: 0 }, 'usd')).toEqual({
      title: 'Included credit',
      description: '$21.00 included, $0.00 used',
      quantity: 1,
      unitPriceCents: -2100,
      amountCents: 0,
    });
    expect(invoiceLine({ title: 'Included credit', quantity: 1, unit_price: '-255.00', amount_in_cent: -420 }, 'eur').description).toBe('€255.00 included, €4.20 used');
    expect(invoiceLine({ title: 'Daily active users', quantity: 12, unit_price: '0.07', amount_in_cent: 84 }, 'usd')).toMatchObject({ description: null, unitPriceCents: 7 });
  });
  it('formats money in the invoice currency', () => {
    expect(formatMoney(7000, 'usd')).toBe('$70.00');
    expect(formatMoney(-2100, 'eur')).toBe('-€21.00');
  });
});

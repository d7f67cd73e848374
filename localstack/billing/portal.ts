import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { planDisplayName } from '../../shared/domain/plans';
import { safeReturnToUrl } from '../../shared/domain/return-to';
import type { LocalStackContext } from '../kernel/context';
import { subscriptions, type SubscriptionRow } from './schema';
import { escapeHtml } from '../kernel/http';
import { route } from '../kernel/route';
import { invoicePage } from './invoices';

/*
 * The customer portal (spec §7: GET /customer/portal, GET /workspaces/{w}/customer-portal). The cloud sends
 * the owner to its payment provider's portal; the local stack serves its own page instead: the subscription,
 * the payment method on file (a test card: no payment is ever taken) and the invoices. A portal link is a
 * random token valid for an hour, kept in this process.
 */

const LINK_LIFETIME_MS = 60 * 60_000;

interface PortalLink {
  subscriptionId: string;
  returnTo: string | null;
  expiresAt: number;
}

export interface Portal {
  /** A portal link for a subscription, answered as customerPortalAvailability plus the link's `url`. */
  linkFor(row: SubscriptionRow | undefined, returnTo: string | undefined): { available: boolean; reason?: 'no_subscription'; url?: string };
}

type Bucket = { billing_period: { start: string; end: string }; base_invoices: Invoice[]; usage_invoice: Invoice };
type Invoice = { type: string; v1: { title: string; total_in_cent: number; currency: string; stripe_invoice_status: string } };

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

function page(row: SubscriptionRow, buckets: Bucket[], returnTo: string | null): string {
  const rows = buckets
    .map((b) => {
      const invoices = [...b.base_invoices, b.usage_invoice];
      const total = invoices.reduce((sum, i) => sum + i.v1.total_in_cent, 0);
      return `<tr><td>${escapeHtml(b.billing_period.start.slice(0, 10))} – ${escapeHtml(b.billing_period.end.slice(0, 10))}</td><td>${escapeHtml(
        invoices.map((i) => `${i.v1.title}: ${money(i.v1.total_in_cent, i.v1.currency)}`).join('; '),
      )}</td><td>${escapeHtml(money(total, row.currency))}</td><td>${escapeHtml(b.usage_invoice.v1.stripe_invoice_status)}</td></tr>`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Billing portal</title>
<style>body{font:14px system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}</style></head>
<body><h1>Billing portal</h1>
<p>This local stack takes no payments: this page stands in for the payment provider's portal.</p>
<h2>Subscription</h2><dl><dt>Plan</dt><dd data-testid="portal-plan">${escapeHtml(planDisplayName(row.plan))}</dd><dt>Billing interval</dt><dd>${escapeHtml(row.interval)}</dd><dt>Currency</dt><dd>${escapeHtml(row.currency.toUpperCase())}</dd><dt>Status</dt><dd>active</dd></dl>
<h2>Payment method</h2><p data-testid="portal-payment-method">Test card ending in 4242, expires 12/2030</p>
<h2>Invoices</h2><table><thead><tr><th>Period</th><th>Invoices</th><th>Total</th><th>Status</th></tr></thead><tbody>${rows || '<tr><td colspan="4">No invoices yet.</td></tr>'}</tbody></table>
${returnTo ? `<p><a href="${escapeHtml(returnTo)}">Return to the console</a></p>` : ''}
</body></html>`;
}

export function registerPortal(scope: FastifyInstance, ctx: LocalStackContext): Portal {
  const links = new Map<string, PortalLink>();

  route(scope, ctx, {
    method: 'GET',
    url: '/portal/:token',
    params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,64}$/, { error: 'is not a portal link' }) }),
    auth: 'public',
    handler: async ({ q, params, reply }) => {
      const link = links.get(params.token);
      if (!link || link.expiresAt < ctx.clock.now().getTime()) {
        links.delete(params.token);
        return reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><title>Billing portal</title><p>This portal link has expired. Open the billing page in the console again.</p>');
      }
      const [row] = await q.orm.select().from(subscriptions).where(eq(subscriptions.id, link.subscriptionId));
      if (!row) return reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><title>Billing portal</title><p>This subscription no longer exists.</p>');
      const { buckets } = await invoicePage(q, ctx.clock, row, 12, 0);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page(row, buckets as Bucket[], link.returnTo));
    },
  });

  return {
    linkFor(row, returnTo) {
      if (!row) return { available: false, reason: 'no_subscription' };
      const now = ctx.clock.now().getTime();
      for (const [token, link] of links) if (link.expiresAt < now) links.delete(token);
      const token = randomBytes(24).toString('base64url');
      links.set(token, { subscriptionId: row.id, returnTo: returnTo ? safeReturnToUrl(returnTo, ctx.uiUrl) : null, expiresAt: now + LINK_LIFETIME_MS });
      return { available: true, url: `${ctx.publicUrl()}/portal/${token}` };
    },
  };
}

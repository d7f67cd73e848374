import { z } from 'zod';
import { uuidSchema } from './common';
import { planSchema, subscriptionInputSchema, upstreamSubscriptionSchema } from './plans';
import { scoped } from './team';

/** A catalogue plan with its prices per currency (GET /pricing). */
export const pricedPlanSchema = planSchema.extend({
  prices: z.object({
    usd: z.object({ monthly: z.number(), yearly: z.number().nullable() }),
    eur: z.object({ monthly: z.number(), yearly: z.number().nullable() }),
  }),
});
export const plansOutput = z.array(pricedPlanSchema);

export const subscriptionScopeInput = scoped({});
export const changePlanInput = scoped(subscriptionInputSchema.shape);
export const unlinkProjectInput = z.object({ projectId: uuidSchema });

/** The subscription in force, with the plan's display name (spec §4); null for a workspace on Develop. */
export const subscriptionOutput = z.object({
  subscription: upstreamSubscriptionSchema.nullable(),
  planId: z.string(),
  planName: z.string(),
});
export type SubscriptionAnswer = z.infer<typeof subscriptionOutput>;

/** One line of an upstream invoice (Ory's LineItemV1). */
const upstreamLineSchema = z.looseObject({
  title: z.string().optional(),
  description: z.string().optional(),
  quantity: z.number().optional(),
  unit_price: z.string().optional(),
  amount_in_cent: z.number().optional(),
});
/** Ory's invoice: its type and the V1 data the console shows. */
const upstreamInvoiceSchema = z.looseObject({
  id: z.string(),
  type: z.enum(['usage', 'base']),
  invoiced_at: z.string(),
  v1: z
    .looseObject({
      title: z.string(),
      currency: z.string(),
      plan: z.string().optional(),
      total_in_cent: z.number(),
      stripe_invoice_status: z.string().optional(),
      stripe_link: z.string().optional(),
      items: z.array(upstreamLineSchema),
    })
    .optional(),
});
/** Ory's listInvoicesResponse: billing-period buckets, paged by token. */
export const upstreamInvoicesSchema = z.looseObject({
  buckets: z.array(
    z.looseObject({
      billing_period: z.object({ start: z.string(), end: z.string() }).optional(),
      base_invoices: z.array(upstreamInvoiceSchema).nullish(),
      usage_invoice: upstreamInvoiceSchema.nullish(),
    }),
  ),
  has_next_page: z.boolean(),
  next_page_token: z.string(),
});
export type UpstreamInvoices = z.infer<typeof upstreamInvoicesSchema>;

/** Ory's customerPortalAvailability, with the portal link when it is available. */
export const upstreamPortalSchema = z.looseObject({
  available: z.boolean(),
  reason: z.string().optional(),
  url: z.string().optional(),
});

export const invoicesInput = scoped({ pageToken: z.string().max(200, { error: 'Page token is too long' }).optional() });
export const portalUrlInput = scoped({});

/** A line of an invoice; `unitPriceCents` is negative for a credit (the amount the plan includes). */
const invoiceLineSchema = z.object({ title: z.string(), description: z.string().nullable(), quantity: z.number().nullable(), unitPriceCents: z.number().nullable(), amountCents: z.number() });
const invoiceSchema = z.object({
  id: z.string(),
  type: z.enum(['usage', 'base']),
  title: z.string(),
  status: z.string(),
  planName: z.string().nullable(),
  totalCents: z.number(),
  lines: z.array(invoiceLineSchema),
});
/** A billing period with its invoices and their total: what the billing pages list. */
export const billingPeriodSchema = z.object({
  start: z.string(),
  end: z.string(),
  /** The open period's invoices are the estimate of the coming bill. */
  open: z.boolean(),
  currency: z.string(),
  invoices: z.array(invoiceSchema),
  totalCents: z.number(),
});
export type BillingPeriod = z.infer<typeof billingPeriodSchema>;
export const invoicesOutput = z.object({ periods: z.array(billingPeriodSchema), nextPageToken: z.string().nullable() });
export type InvoicesAnswer = z.infer<typeof invoicesOutput>;

export const portalUrlOutput = z.object({ url: z.string().nullable(), reason: z.string().nullable() });

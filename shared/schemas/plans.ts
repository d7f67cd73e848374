import { z } from 'zod';
import { billingIntervalSchema, currencySchema } from './enums';

/** Spec §3: the current plan ids. */
export const PLAN_IDS = ['Develop@0', 'Production@0', 'Growth@0', 'enterprise'] as const;
export const planIdSchema = z.enum(PLAN_IDS);
export type PlanId = z.infer<typeof planIdSchema>;

/** Spec §3: old plan ids and the current plan each one maps to. */
export const LEGACY_PLAN_IDS = {
  'Dev@0': 'Develop@0',
  'Essentials@1': 'Production@0',
  'Essentials@2': 'Production@0',
  'Scale@0': 'Growth@0',
  'Scale@1': 'Growth@0',
  'CustomAnaconda@0': 'enterprise',
} as const satisfies Record<string, PlanId>;
export type LegacyPlanId = keyof typeof LEGACY_PLAN_IDS;
export const legacyPlanIdSchema = z.enum(Object.keys(LEGACY_PLAN_IDS) as [LegacyPlanId, ...LegacyPlanId[]]);

/**
 * One line of a plan's feature list. It carries either an amount (e.g. 5 team members) or an additional
 * price in US dollars per the unit its description names, never both.
 */
export const planFeatureSchema = z
  .object({
    key: z.string().min(1),
    description: z.string().min(1),
    amount: z.number().nonnegative().optional(),
    additionalPrice: z.number().nonnegative().optional(),
    disclaimer: z.string().min(1).optional(),
    /** A limitation rather than a benefit (shown crossed out or muted). */
    negative: z.boolean().optional(),
  })
  .refine((f) => f.amount === undefined || f.additionalPrice === undefined, {
    message: 'A plan feature has an amount or an additional price, not both',
  });
export type PlanFeature = z.infer<typeof planFeatureSchema>;

export const planColoursSchema = z.object({
  accent: z.string().regex(/^#[0-9a-f]{6}$/i, { message: 'Must be a #rrggbb colour' }),
  background: z.string().regex(/^#[0-9a-f]{6}$/i, { message: 'Must be a #rrggbb colour' }),
});
export type PlanColours = z.infer<typeof planColoursSchema>;

/** Spec §3 and §9: one entry of the plan catalogue. Prices are whole US dollars. */
export const planSchema = z.object({
  id: planIdSchema,
  legacyIds: z.array(legacyPlanIdSchema),
  name: z.string().min(1),
  price: z.number().nonnegative(),
  /** null when the catalogue states no yearly price. */
  priceYearly: z.number().nonnegative().nullable(),
  /** The price is a starting point ("from 3000"). */
  priceFrom: z.boolean(),
  description: z.string().min(1),
  features: z.array(planFeatureSchema),
  colours: planColoursSchema,
});
export type Plan = z.infer<typeof planSchema>;

/** Spec §3: a subscription as the console reasons about it. `plan` may be a legacy id. */
export const subscriptionSchema = z.object({
  plan: z.string().min(1),
  interval: billingIntervalSchema,
  currency: currencySchema,
});
export type Subscription = z.infer<typeof subscriptionSchema>;

/** What a user may choose when subscribing or changing plan: current ids only. */
export const subscriptionInputSchema = z.object({
  plan: planIdSchema,
  interval: billingIntervalSchema,
  currency: currencySchema.default('usd'),
});
export type SubscriptionInput = z.infer<typeof subscriptionInputSchema>;

/** The control plane's `subscription` object; unknown fields pass through. */
export const upstreamSubscriptionSchema = z.looseObject({
  id: z.string(),
  customer_id: z.string().optional(),
  currency: currencySchema,
  current_interval: billingIntervalSchema,
  current_plan: z.string().min(1),
  status: z.string(),
  payed_until: z.string().optional(),
  plan_changes_to: z.string().nullable().optional(),
  plan_changes_at: z.string().nullable().optional(),
  interval_changes_to: z.string().nullable().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});
export type UpstreamSubscription = z.infer<typeof upstreamSubscriptionSchema>;

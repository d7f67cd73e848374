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

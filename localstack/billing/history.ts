import type { Queryable } from '../db/types';
import { subscriptionChanges } from './schema';

/** Notes the plan a subscription moves to, from `at` on: invoices charge each period at the plan it ended on. */
export async function recordPlanChange(q: Queryable, subscriptionId: string, at: Date, plan: string, interval: string): Promise<void> {
  await q.orm
    .insert(subscriptionChanges)
    .values({ subscription_id: subscriptionId, at, plan, interval })
    .onConflictDoUpdate({ target: [subscriptionChanges.subscription_id, subscriptionChanges.at], set: { plan, interval } });
}

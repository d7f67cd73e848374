import { bigint, date, foreignKey, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { subscriptions } from '../project/schema';

const tstz = { withTimezone: true } as const;

/*
 * Billing's measurements. Every plan a subscription has had, from when (the billing clock's time), so that
 * each period is charged at the plan it ended on; the identities of a project that signed in on a day (daily
 * active users, measured daily and averaged monthly, spec §9); and per-day counters of what the data plane
 * meters (permission checks).
 */
export const subscriptionChanges = pgTable(
  'subscription_changes',
  {
    subscription_id: uuid().notNull(),
    at: timestamp(tstz).notNull(),
    plan: text().notNull(),
    interval: text().notNull(),
  },
  (t) => [
    primaryKey({ name: 'subscription_changes_pkey', columns: [t.subscription_id, t.at] }),
    foreignKey({ name: 'subscription_changes_subscription_id_fkey', columns: [t.subscription_id], foreignColumns: [subscriptions.id] }).onDelete(
      'cascade',
    ),
  ],
);

export const activeIdentities = pgTable(
  'active_identities',
  {
    project_id: uuid().notNull(),
    day: date({ mode: 'string' }).notNull(),
    identity_id: uuid().notNull(),
  },
  (t) => [primaryKey({ name: 'active_identities_pkey', columns: [t.project_id, t.day, t.identity_id] })],
);

export const usageCounters = pgTable(
  'usage_counters',
  {
    project_id: uuid().notNull(),
    day: date({ mode: 'string' }).notNull(),
    metric: text().notNull(),
    count: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'usage_counters_pkey', columns: [t.project_id, t.metric, t.day] }), index('usage_counters_day').on(t.day)],
);

export type SubscriptionChangeRow = typeof subscriptionChanges.$inferSelect;

import { sql } from 'drizzle-orm';
import { bigint, check, date, foreignKey, index, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { projects, workspaces } from '../kernel/tables';

const tstz = { withTimezone: true } as const;
/** Subscriptions read their timestamps as dates. */
const tstzDate = { withTimezone: true, mode: 'date' } as const;

/*
 * The plan in force of a project or a workspace (one row each at most). The purchase path (billing) writes
 * it; until then the local stack's store and tests do. No row means the Develop plan.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid().primaryKey(),
    project_id: uuid(),
    workspace_id: uuid(),
    plan: text().notNull(),
    interval: text().notNull().default('monthly'),
    currency: text().notNull().default('usd'),
    created_at: timestamp(tstzDate).notNull(),
    updated_at: timestamp(tstzDate).notNull(),
  },
  (t) => [
    foreignKey({ name: 'subscriptions_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete('cascade'),
    foreignKey({ name: 'subscriptions_workspace_id_fkey', columns: [t.workspace_id], foreignColumns: [workspaces.id] }).onDelete(
      'cascade',
    ),
    check('subscriptions_one_scope_check', sql`(${t.project_id} IS NULL) <> (${t.workspace_id} IS NULL)`),
    check('subscriptions_interval_check', sql`${t.interval} IN ('monthly', 'yearly')`),
    check('subscriptions_currency_check', sql`${t.currency} IN ('usd', 'eur')`),
    unique('subscriptions_project_id_key').on(t.project_id),
    unique('subscriptions_workspace_id_key').on(t.workspace_id),
  ],
);

export type SubscriptionRow = typeof subscriptions.$inferSelect;

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

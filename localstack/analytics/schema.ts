import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const tstz = { withTimezone: true } as const;

/** Product analytics the console sent to /ingest: kept so a developer (and a test) can read them back. */
export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: uuid().primaryKey(),
    received_at: timestamp(tstz).notNull(),
    event: text().notNull(),
    distinct_id: text(),
    session_id: text(),
    occurred_at: timestamp(tstz).notNull(),
    properties: jsonb().$type<Record<string, unknown>>().notNull(),
  },
  (t) => [index('analytics_events_received').on(t.received_at, t.id), index('analytics_events_event').on(t.event, t.received_at)],
);

import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const tstz = { withTimezone: true } as const;

/**
 * What a project's data planes did (a sign-in, a token issued, a permission checked, …), one row each, with
 * its attributes as strings. The metrics calls count them over time ranges; `identity_id` names the
 * identity the event is about when there is one.
 */
export const projectEvents = pgTable(
  'project_events',
  {
    id: uuid().primaryKey(),
    nid: uuid().notNull(),
    type: text().notNull(),
    occurred_at: timestamp(tstz).notNull(),
    identity_id: uuid(),
    attributes: jsonb().$type<Record<string, string>>().notNull(),
  },
  (t) => [
    index('project_events_nid_time').on(t.nid, t.occurred_at, t.id),
    // With identity_id, daily active users count from the index alone (no heap fetch per event).
    index('project_events_nid_type_time_identity').on(t.nid, t.type, t.occurred_at, t.identity_id),
  ],
);

export type ProjectEventRow = typeof projectEvents.$inferSelect;

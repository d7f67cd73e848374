import { foreignKey, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../project/schema';

const tstz = { withTimezone: true, mode: 'date' } as const;

/*
 * Event streams (Ory's eventStream): where a project's events are sent. `https` streams are delivered by the
 * local stack, each request signed with the stream's `secret` (HMAC-SHA256); `sns` streams are stored and
 * checked, and delivered on Ory Network only. Deleting the project deletes its streams and their log.
 */
export const eventStreams = pgTable(
  'event_streams',
  {
    id: uuid().primaryKey(),
    project_id: uuid().notNull(),
    type: text().$type<'https' | 'sns'>().notNull(),
    status: text().$type<'active' | 'paused'>().notNull(),
    https_endpoint: text(),
    topic_arn: text(),
    role_arn: text(),
    secret: text().notNull(),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    foreignKey({ name: 'event_streams_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete('cascade'),
    index('event_streams_project_idx').on(t.project_id, t.created_at, t.id),
  ],
);

/**
 * One event on its way to one stream: queued with the stream's active `https` streams when the event is
 * recorded (in the same statement), the body fixed then. `status` is `pending` until an attempt succeeds
 * (`success`) or the last retry fails (`failed`); `next_attempt_at` is on the stack's clock.
 */
export const eventStreamDeliveries = pgTable(
  'event_stream_deliveries',
  {
    id: uuid().primaryKey(),
    stream_id: uuid().notNull(),
    event_id: uuid(),
    event_type: text().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    status: text().$type<'pending' | 'success' | 'failed'>().notNull(),
    attempts: integer().notNull(),
    next_attempt_at: timestamp(tstz).notNull(),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    foreignKey({ name: 'event_stream_deliveries_stream_id_fkey', columns: [t.stream_id], foreignColumns: [eventStreams.id] }).onDelete('cascade'),
    index('event_stream_deliveries_due_idx').on(t.status, t.next_attempt_at),
  ],
);

/** Each attempt at a delivery: its outcome, the receiver's status code (null when none answered) and how long it took. */
export const eventStreamAttempts = pgTable(
  'event_stream_attempts',
  {
    id: uuid().primaryKey(),
    stream_id: uuid().notNull(),
    delivery_id: uuid().notNull(),
    attempt: integer().notNull(),
    status: text().$type<'success' | 'failed'>().notNull(),
    response_code: integer(),
    latency_ms: integer().notNull(),
    error: text(),
    at: timestamp(tstz).notNull(),
  },
  (t) => [
    foreignKey({ name: 'event_stream_attempts_delivery_id_fkey', columns: [t.delivery_id], foreignColumns: [eventStreamDeliveries.id] }).onDelete('cascade'),
    foreignKey({ name: 'event_stream_attempts_stream_id_fkey', columns: [t.stream_id], foreignColumns: [eventStreams.id] }).onDelete('cascade'),
    index('event_stream_attempts_stream_idx').on(t.stream_id, t.at, t.id),
  ],
);

export type EventStreamRow = typeof eventStreams.$inferSelect;
export type EventStreamDeliveryRow = typeof eventStreamDeliveries.$inferSelect;
export type EventStreamAttemptRow = typeof eventStreamAttempts.$inferSelect;

import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { eventStreamAttempts, eventStreamDeliveries, eventStreams, type EventStreamAttemptRow, type EventStreamRow } from './schema';

export async function listStreams(q: Queryable, projectId: string): Promise<EventStreamRow[]> {
  return q.orm.select().from(eventStreams).where(eq(eventStreams.project_id, projectId)).orderBy(eventStreams.created_at, eventStreams.id);
}

export async function findStream(q: Queryable, projectId: string, id: string): Promise<EventStreamRow | undefined> {
  const [row] = await q.orm.select().from(eventStreams).where(and(eq(eventStreams.id, id), eq(eventStreams.project_id, projectId)));
  return row;
}

export type AttemptWithDelivery = EventStreamAttemptRow & { event_type: string; delivery_status: 'pending' | 'success' | 'failed' };

/** A stream's attempts, newest first, after the cursor; one more than `limit` says there is a next page. */
export async function listAttempts(q: Queryable, streamId: string, cursor: { at: Date; id: string } | null, limit: number): Promise<AttemptWithDelivery[]> {
  const where = [eq(eventStreamAttempts.stream_id, streamId)];
  if (cursor) where.push(or(lt(eventStreamAttempts.at, cursor.at), and(eq(eventStreamAttempts.at, cursor.at), lt(eventStreamAttempts.id, cursor.id)))!);
  const rows = await q.orm
    .select({ attempt: eventStreamAttempts, event_type: eventStreamDeliveries.event_type, delivery_status: eventStreamDeliveries.status })
    .from(eventStreamAttempts)
    .innerJoin(eventStreamDeliveries, eq(eventStreamDeliveries.id, eventStreamAttempts.delivery_id))
    .where(and(...where))
    .orderBy(desc(eventStreamAttempts.at), desc(eventStreamAttempts.id))
    .limit(limit + 1);
  return rows.map((r) => ({ ...r.attempt, event_type: r.event_type, delivery_status: r.delivery_status }));
}

export async function countStreams(q: Queryable, projectId: string): Promise<number> {
  const [row] = await q.orm.select({ n: sql<number>`count(*)::int` }).from(eventStreams).where(eq(eventStreams.project_id, projectId));
  return row?.n ?? 0;
}

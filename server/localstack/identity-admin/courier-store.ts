import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { courierMessages, type CourierMessageRow } from '../identity/schema';
import { msOf, type Cursor } from './paging';

export interface MessageFilter {
  nid: string;
  status?: string;
  recipient?: string;
  after: Cursor | null;
  limit: number;
}

/** One page of the tenant's messages, newest first (created_at, id), one row more than asked. */
export function listMessages(q: Queryable, filter: MessageFilter): Promise<CourierMessageRow[]> {
  const conditions: SQL[] = [eq(courierMessages.nid, filter.nid)];
  if (filter.status) conditions.push(eq(courierMessages.status, filter.status));
  if (filter.recipient) conditions.push(eq(courierMessages.recipient, filter.recipient));
  if (filter.after) {
    conditions.push(
      sql`(${msOf(courierMessages.created_at)}, ${courierMessages.id}) < (${filter.after.createdAt}::timestamptz, ${filter.after.id}::uuid)`,
    );
  }
  return q.orm
    .select()
    .from(courierMessages)
    .where(and(...conditions))
    .orderBy(desc(msOf(courierMessages.created_at)), desc(courierMessages.id))
    .limit(filter.limit + 1);
}

export async function findMessage(q: Queryable, nid: string, id: string): Promise<CourierMessageRow | null> {
  const [row] = await q.orm
    .select()
    .from(courierMessages)
    .where(and(eq(courierMessages.nid, nid), eq(courierMessages.id, id)));
  return row ?? null;
}

import { and, asc, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { courierMessageDispatches, courierMessages, type CourierDispatchRow, type CourierMessageRow } from '../identity/schema';
import { msOf, type Cursor } from '../kernel/paging';

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

/** The dispatch attempts of the tenant's messages `ids`, oldest first, grouped by message. */
export async function dispatchesOf(q: Queryable, nid: string, ids: string[]): Promise<Map<string, CourierDispatchRow[]>> {
  const out = new Map<string, CourierDispatchRow[]>();
  if (ids.length === 0) return out;
  const rows = await q.orm
    .select()
    .from(courierMessageDispatches)
    .where(and(eq(courierMessageDispatches.nid, nid), inArray(courierMessageDispatches.message_id, ids)))
    .orderBy(asc(courierMessageDispatches.created_at), asc(courierMessageDispatches.id));
  for (const row of rows) out.set(row.message_id, [...(out.get(row.message_id) ?? []), row]);
  return out;
}

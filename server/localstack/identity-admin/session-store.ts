import { and, desc, eq, gt, not, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { sessions, type SessionRow } from '../identity/schema';
import { msOf, type Cursor } from './paging';

export interface SessionFilter {
  nid: string;
  identityId?: string;
  /** true: only sessions that still work; false: only revoked or expired ones. */
  active?: boolean;
  after: Cursor | null;
  limit: number;
}

/** A session works while it is not revoked and not expired. */
const working = (now: Date) => and(eq(sessions.active, true), gt(sessions.expires_at, now))!;

/** One page of the tenant's sessions, newest first (issued_at, id), one row more than asked. */
export function listSessions(q: Queryable, filter: SessionFilter): Promise<SessionRow[]> {
  const now = new Date();
  const conditions: SQL[] = [eq(sessions.nid, filter.nid)];
  if (filter.identityId) conditions.push(eq(sessions.identity_id, filter.identityId));
  if (filter.active === true) conditions.push(working(now));
  if (filter.active === false) conditions.push(not(working(now)));
  if (filter.after) {
    conditions.push(
      sql`(${msOf(sessions.issued_at)}, ${sessions.id}) < (${filter.after.createdAt}::timestamptz, ${filter.after.id}::uuid)`,
    );
  }
  return q.orm
    .select()
    .from(sessions)
    .where(and(...conditions))
    .orderBy(desc(msOf(sessions.issued_at)), desc(sessions.id))
    .limit(filter.limit + 1);
}

export async function findSessionById(q: Queryable, nid: string, id: string): Promise<SessionRow | null> {
  const [row] = await q.orm
    .select()
    .from(sessions)
    .where(and(eq(sessions.nid, nid), eq(sessions.id, id)));
  return row ?? null;
}

/** Whether the row's session still works at `now`. */
export const isWorking = (row: SessionRow, now = new Date()) => row.active && row.expires_at > now;

/** Revokes a session (Kratos keeps it, inactive); false when the tenant has none with that id. */
export async function disableSession(q: Queryable, nid: string, id: string): Promise<boolean> {
  const rows = await q.orm
    .update(sessions)
    .set({ active: false })
    .where(and(eq(sessions.nid, nid), eq(sessions.id, id)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Deletes every session of an identity of the tenant. */
export async function deleteIdentitySessions(q: Queryable, nid: string, identityId: string): Promise<void> {
  await q.orm.delete(sessions).where(and(eq(sessions.nid, nid), eq(sessions.identity_id, identityId)));
}

/** Moves a working session's expiry to `expiresAt`; null when the tenant has no working session with that id. */
export async function extendSession(q: Queryable, nid: string, id: string, expiresAt: Date): Promise<SessionRow | null> {
  const [row] = await q.orm
    .update(sessions)
    .set({ expires_at: expiresAt })
    .where(and(eq(sessions.nid, nid), eq(sessions.id, id), working(new Date())))
    .returning();
  return row ?? null;
}


import { and, count, desc, eq, gt, ne, not, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { sessions, type SessionRow } from '../identity/schema';
import { authorizationChanged, consoleIdentitiesChanged } from '../kernel/authz-cache';
import { msOf, type Cursor } from '../kernel/paging';

export interface SessionFilter {
  nid: string;
  identityId?: string;
  /** A session to leave out (Kratos' listMySessions leaves out the caller's own). */
  exceptId?: string;
  /** true: only sessions that still work; false: only revoked or expired ones. */
  active?: boolean;
  after: Cursor | null;
  /** Rows to skip (Kratos' offset paging of an identity's sessions). */
  offset?: number;
  limit: number;
}

/** A session works while it is not revoked and not expired. */
const working = (now: Date) => and(eq(sessions.active, true), gt(sessions.expires_at, now))!;

/** One page of the tenant's sessions, newest first (issued_at, id), one row more than asked. */
function filtered(filter: Omit<SessionFilter, 'after' | 'limit'>, now: Date): SQL[] {
  const conditions: SQL[] = [eq(sessions.nid, filter.nid)];
  if (filter.identityId) conditions.push(eq(sessions.identity_id, filter.identityId));
  if (filter.exceptId) conditions.push(ne(sessions.id, filter.exceptId));
  if (filter.active === true) conditions.push(working(now));
  if (filter.active === false) conditions.push(not(working(now)));
  return conditions;
}

/** How many sessions match (Kratos' X-Total-Count of an identity's sessions). */
export async function countSessions(q: Queryable, filter: Omit<SessionFilter, 'after' | 'limit'>, now: Date): Promise<number> {
  const [row] = await q.orm.select({ n: count() }).from(sessions).where(and(...filtered(filter, now)));
  return row?.n ?? 0;
}

/** `now`: the stack's clock time, which decides which sessions still work. */
export function listSessions(q: Queryable, filter: SessionFilter, now: Date): Promise<SessionRow[]> {
  const conditions = filtered(filter, now);
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
    .limit(filter.limit + 1)
    .offset(filter.offset ?? 0);
}

export async function findSessionById(q: Queryable, nid: string, id: string): Promise<SessionRow | null> {
  const [row] = await q.orm
    .select()
    .from(sessions)
    .where(and(eq(sessions.nid, nid), eq(sessions.id, id)));
  return row ?? null;
}

/** Whether the row's session still works at `now` (the stack's clock time). */
export const isWorking = (row: SessionRow, now: Date) => row.active && row.expires_at > now;

/** Revokes a session (Kratos keeps it, inactive); false when the tenant has none with that id. */
export async function disableSession(q: Queryable, nid: string, id: string): Promise<boolean> {
  const rows = await q.orm
    .update(sessions)
    .set({ active: false })
    .where(and(eq(sessions.nid, nid), eq(sessions.id, id)))
    .returning({ id: sessions.id });
  consoleIdentitiesChanged(nid);
  return rows.length > 0;
}

/** Revokes a session of the identity (not another identity's); false when it has none with that id. */
export async function disableOwnSession(q: Queryable, nid: string, identityId: string, id: string): Promise<boolean> {
  const rows = await q.orm
    .update(sessions)
    .set({ active: false })
    .where(and(eq(sessions.nid, nid), eq(sessions.identity_id, identityId), eq(sessions.id, id)))
    .returning({ id: sessions.id });
  consoleIdentitiesChanged(nid);
  return rows.length > 0;
}

/** Revokes every working session of the identity but `keepId`; how many it revoked. */
export async function disableOtherSessions(q: Queryable, nid: string, identityId: string, keepId: string, now: Date): Promise<number> {
  const rows = await q.orm
    .update(sessions)
    .set({ active: false })
    .where(and(eq(sessions.nid, nid), eq(sessions.identity_id, identityId), ne(sessions.id, keepId), working(now)))
    .returning({ id: sessions.id });
  consoleIdentitiesChanged(nid);
  return rows.length;
}

/** Deletes every session of an identity of the tenant; how many there were. */
export async function deleteIdentitySessions(q: Queryable, nid: string, identityId: string): Promise<number> {
  const rows = await q.orm
    .delete(sessions)
    .where(and(eq(sessions.nid, nid), eq(sessions.identity_id, identityId)))
    .returning({ id: sessions.id });
  consoleIdentitiesChanged(nid);
  return rows.length;
}

/** Moves a working session's expiry to `expiresAt`; null when the tenant has no working session with that id. */
export async function extendSession(q: Queryable, nid: string, id: string, expiresAt: Date, now: Date): Promise<SessionRow | null> {
  const [row] = await q.orm
    .update(sessions)
    .set({ expires_at: expiresAt })
    .where(and(eq(sessions.nid, nid), eq(sessions.id, id), working(now)))
    .returning();
  consoleIdentitiesChanged(nid);
  return row ?? null;
}


/**
 * Carries every session that works at `now` (in every tenant) `ms` forward in time: its authentication,
 * issue and expiry move by the same amount. The developer's clock move (`PUT /local/clock`) calls it, so a
 * jump to next month's invoices signs no one out; time a test lets pass with `clock.advance` expires them.
 */
export async function carryWorkingSessions(q: Queryable, now: Date, ms: number): Promise<number> {
  const by = sql`${ms} * interval '1 millisecond'`;
  const rows = await q.orm
    .update(sessions)
    .set({
      authenticated_at: sql`${sessions.authenticated_at} + ${by}`,
      issued_at: sql`${sessions.issued_at} + ${by}`,
      expires_at: sql`${sessions.expires_at} + ${by}`,
    })
    .where(working(now))
    .returning({ id: sessions.id });
  authorizationChanged();
  return rows.length;
}

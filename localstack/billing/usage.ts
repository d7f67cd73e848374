import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import type { Clock } from '../kernel/clock';
import type { Queryable } from '../db/types';
import { usageCounters } from './schema';

/** The billing clock's day (UTC) as YYYY-MM-DD. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * Daily active users summed over the days [from, to) (YYYY-MM-DD, UTC) of the projects `projectIds` selects
 * (SQL): each identity counts once a day it was given a session (sign-up, sign-in, recovery). Read from the
 * project's events (`SessionIssued`), the same events its activity charts count, so the bill and the charts
 * cannot disagree.
 */
export function activeUserDaysSql(projectIds: SQL, from: string, to: string): SQL {
  return sql`SELECT count(*)::int FROM (
    SELECT DISTINCT nid, (occurred_at AT TIME ZONE 'UTC')::date, identity_id FROM project_events
    WHERE nid IN (${projectIds}) AND type = 'SessionIssued' AND identity_id IS NOT NULL
      AND occurred_at >= ${from}::date::timestamp AT TIME ZONE 'UTC' AND occurred_at < ${to}::date::timestamp AT TIME ZONE 'UTC'
  ) AS active`;
}

/** The metric every token a project's OAuth2 server issues is counted under (spec §9 quota key). */
export const TOKEN_METRIC = 'm2m_token_issuance';

/** Counts `n` units of a metered `metric` (permission_checks, …) for a project on the billing clock's day. */
export async function meter(q: Queryable, clock: Clock, projectId: string, metric: string, n = 1): Promise<void> {
  await q.orm
    .insert(usageCounters)
    .values({ project_id: projectId, day: dayOf(clock.now()), metric, count: n })
    .onConflictDoUpdate({
      target: [usageCounters.project_id, usageCounters.metric, usageCounters.day],
      set: { count: sql`${usageCounters.count} + ${n}` },
    });
}

/** What a set of projects used in [from, to) (days, UTC): daily active users summed over the days, and metered counts. */
export interface Usage {
  /** Σ over days of that day's distinct signed-in identities. */
  activeUserDays: number;
  permissionChecks: number;
  /** Tokens the projects' OAuth2 servers issued (m2m_token_issuance). */
  tokensIssued: number;
}

export async function usageBetween(q: Queryable, projectIds: string[], from: string, to: string): Promise<Usage> {
  if (projectIds.length === 0) return { activeUserDays: 0, permissionChecks: 0, tokensIssued: 0 };
  const ids = sql.join(projectIds.map((id) => sql`${id}::uuid`), sql`, `);
  const [active] = ((await q.orm.execute(activeUserDaysSql(ids, from, to))) as unknown as { rows: { count: number }[] }).rows;
  const counted = (metric: string) =>
    q.orm
      .select({ n: sql<number>`coalesce(sum(${usageCounters.count}), 0)::bigint` })
      .from(usageCounters)
      .where(
        and(
          inArray(usageCounters.project_id, projectIds),
          eq(usageCounters.metric, metric),
          gte(usageCounters.day, from),
          lt(usageCounters.day, to),
        ),
      );
  const [[checks], [tokens]] = await Promise.all([counted('permission_checks'), counted(TOKEN_METRIC)]);
  return { activeUserDays: Number(active?.count ?? 0), permissionChecks: Number(checks?.n ?? 0), tokensIssued: Number(tokens?.n ?? 0) };
}

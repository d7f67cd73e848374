import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Clock } from '../kernel/clock';
import type { Queryable } from '../db/types';
import { CONSOLE_NID } from '../kernel/tenant-id';
import { activeIdentities, usageCounters } from './schema';

/** The billing clock's day (UTC) as YYYY-MM-DD. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** A sign-in of a project's identity makes it a daily active user of that day (the console's own tenant is no project). */
export async function recordSignIn(q: Queryable, clock: Clock, nid: string, identityId: string): Promise<void> {
  if (nid === CONSOLE_NID) return;
  await q.orm.insert(activeIdentities).values({ project_id: nid, day: dayOf(clock.now()), identity_id: identityId }).onConflictDoNothing();
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
  const [active] = await q.orm
    .select({ n: sql<number>`count(*)::int` })
    .from(activeIdentities)
    .where(and(inArray(activeIdentities.project_id, projectIds), gte(activeIdentities.day, from), lt(activeIdentities.day, to)));
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
  return { activeUserDays: active?.n ?? 0, permissionChecks: Number(checks?.n ?? 0), tokensIssued: Number(tokens?.n ?? 0) };
}

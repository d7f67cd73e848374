import { and, desc, eq, gte, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Resolution } from '../../shared/domain/metrics';
import type { AttributeFilterInput } from '../../shared/schemas/metrics';
import type { Queryable } from '../db/types';
import { projectEvents, type ProjectEventRow } from '../event/schema';
import { sessions } from '../identity/schema';

const inRange = (nid: string, from: Date, to: Date): SQL[] => [eq(projectEvents.nid, nid), gte(projectEvents.occurred_at, from), lt(projectEvents.occurred_at, to)];

/**
 * Counts of `type` in [from, to) per bucket key: for minutes, hours and days the bucket's index since the
 * epoch (start = index × step), for months and years the calendar month's index (year × 12 + month).
 *
 * Rows are grouped by `date_bin` (or the UTC month), a cheap exact timestamp per row, and the key is computed
 * once per group from the group's earliest event, which lies in that bucket: computing the key per row as a
 * numeric (`extract(epoch …)` is numeric) cost as much as reading the rows from the index.
 */
export async function countByBucket(q: Queryable, nid: string, type: string, from: Date, to: Date, r: Resolution): Promise<{ key: number; n: number }[]> {
  const stepSeconds = r.unit === 'm' ? r.n * 60 : r.unit === 'h' ? r.n * 3600 : r.n * 86400;
  const calendar = r.unit === 'M' || r.unit === 'y';
  const earliest = sql`min(${projectEvents.occurred_at})`;
  const key = calendar
    ? sql<number>`(extract(year from ${earliest} at time zone 'UTC') * 12 + extract(month from ${earliest} at time zone 'UTC') - 1)::bigint`
    : sql<number>`floor(extract(epoch from ${earliest}) / ${stepSeconds})::bigint`;
  const bucket = calendar ? sql`date_trunc('month', ${projectEvents.occurred_at} at time zone 'UTC')` : binOf(stepSeconds);
  const rows = await q.orm
    .select({ key, n: sql<number>`count(*)::int` })
    .from(projectEvents)
    .where(and(...inRange(nid, from, to), eq(projectEvents.type, type)))
    .groupBy(bucket);
  return rows.map((r) => ({ key: Number(r.key), n: Number(r.n) }));
}

/** The start of the `stepSeconds`-long bucket (aligned to the epoch) an event falls in. */
const binOf = (stepSeconds: number): SQL => sql`date_bin(make_interval(secs => ${stepSeconds}), ${projectEvents.occurred_at}, timestamptz '1970-01-01 00:00:00+00')`;

/** How many events in [from, to) carry each value of `attribute` (events without it are left out). */
export async function countByAttribute(q: Queryable, nid: string, attribute: string, from: Date, to: Date, type?: string): Promise<{ name: string; count: number }[]> {
  const value = sql<string>`${projectEvents.attributes} ->> ${attribute}`;
  const where = [...inRange(nid, from, to), sql`(${projectEvents.attributes} ->> ${attribute}) is not null`];
  if (type) where.push(eq(projectEvents.type, type));
  const rows = await q.orm
    .select({ name: value, count: sql<number>`count(*)::int` })
    .from(projectEvents)
    .where(and(...where))
    .groupBy(sql`1`)
    .orderBy(sql`2 desc`, sql`1`)
    .limit(100);
  return rows.map((r) => ({ name: r.name, count: Number(r.count) }));
}

/** Sign-ins that succeeded and failed in [from, to), per country ('' where the country is not known). */
export async function sessionActivity(q: Queryable, nid: string, from: Date, to: Date): Promise<{ country: string; succeeded: number; failed: number }[]> {
  const country = sql<string>`coalesce(${projectEvents.attributes} ->> 'country', '')`;
  const rows = await q.orm
    .select({
      country,
      succeeded: sql<number>`count(*) filter (where ${projectEvents.type} = 'LoginSucceeded')::int`,
      failed: sql<number>`count(*) filter (where ${projectEvents.type} = 'LoginFailed')::int`,
    })
    .from(projectEvents)
    .where(and(...inRange(nid, from, to), or(eq(projectEvents.type, 'LoginSucceeded'), eq(projectEvents.type, 'LoginFailed'))))
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  return rows.map((r) => ({ country: r.country, succeeded: Number(r.succeeded), failed: Number(r.failed) }));
}

function filterSql(f: AttributeFilterInput): SQL {
  const value = sql`${projectEvents.attributes} ->> ${f.attribute}`;
  const v = f.value ?? '';
  switch (f.condition) {
    case 'equals':
      return sql`${value} = ${v}`;
    case 'not_equals':
      return sql`${value} is distinct from ${v}`;
    case 'contains':
      return sql`strpos(${value}, ${v}) > 0`;
    case 'not_contains':
      return sql`coalesce(strpos(${value}, ${v}), 0) = 0`;
    case 'regex':
      return sql`${value} ~ ${v}`;
    case 'not_regex':
      return sql`not coalesce(${value} ~ ${v}, false)`;
    case 'set':
      return sql`${value} is not null`;
    case 'not_set':
      return sql`${value} is null`;
  }
}

export interface EventCursor {
  at: Date;
  id: string;
}

/** Events in [from, to), newest first, after `cursor`, matching every filter; one more than `limit` says there is a next page. */
export async function listEvents(
  q: Queryable,
  nid: string,
  opts: { from: Date; to: Date; type?: string; filters: AttributeFilterInput[]; cursor: EventCursor | null; limit: number },
): Promise<ProjectEventRow[]> {
  const where = [...inRange(nid, opts.from, opts.to), ...opts.filters.map(filterSql)];
  if (opts.type) where.push(eq(projectEvents.type, opts.type));
  if (opts.cursor) {
    where.push(or(lt(projectEvents.occurred_at, opts.cursor.at), and(eq(projectEvents.occurred_at, opts.cursor.at), lt(projectEvents.id, opts.cursor.id)))!);
  }
  return q.orm
    .select()
    .from(projectEvents)
    .where(and(...where))
    .orderBy(desc(projectEvents.occurred_at), desc(projectEvents.id))
    .limit(opts.limit + 1);
}

/**
 * Distinct identities per UTC day in [from, to) that started a session (sign-up, sign-in, recovery: `SessionIssued`), keyed by the day's start (ms).
 * `identity_id` is the event's identity_id attribute as a column, so the (nid, type, occurred_at, identity_id)
 * index answers alone.
 */
export async function activeUsersByDay(q: Queryable, nid: string, from: Date, to: Date): Promise<Map<number, number>> {
  const day = sql<number>`floor(extract(epoch from min(${projectEvents.occurred_at})) / 86400)::bigint`;
  const rows = await q.orm
    .select({ day, n: sql<number>`count(distinct ${projectEvents.identity_id})::int` })
    .from(projectEvents)
    .where(and(...inRange(nid, from, to), eq(projectEvents.type, 'SessionIssued')))
    .groupBy(binOf(86400));
  return new Map(rows.map((r) => [Number(r.day) * 86_400_000, Number(r.n)]));
}

/** The sessions of a project's identities that are active and unexpired at `now`. */
export async function activeSessionCount(q: Queryable, nid: string, now: Date): Promise<number> {
  const [row] = await q.orm
    .select({ n: sql<number>`count(*)::int` })
    .from(sessions)
    .where(and(eq(sessions.nid, nid), eq(sessions.active, true), gte(sessions.expires_at, now)));
  return Number(row?.n ?? 0);
}

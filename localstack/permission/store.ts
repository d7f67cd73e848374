/**
 * The relation tuples of one project in the database: what a check reads (one query per step, each served by
 * the unique key) and what the API writes and lists.
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../kernel/queryable';
import { prepared } from '../db/prepared';
import type { Lookahead, SubjectSetHolding, SubjectSetType, TupleReader } from '../../shared/permissions/engine';
import type { RelationTuple, Subject, SubjectSet } from '../../shared/permissions/model';
import { relationTuples as t } from './schema';

/** A filter of tuples, as Keto's relation query: every field optional; a subject set is given whole. */
export interface TupleQuery {
  namespace?: string;
  object?: string;
  relation?: string;
  subject?: Subject;
}

type Row = typeof t.$inferSelect;

export function tupleOfRow(row: Pick<Row, 'namespace' | 'object' | 'relation' | 'subject_id' | 'subject_set_namespace' | 'subject_set_object' | 'subject_set_relation'>): RelationTuple {
  return {
    namespace: row.namespace,
    object: row.object,
    relation: row.relation,
    subject:
      row.subject_id !== null
        ? { id: row.subject_id }
        : { set: { namespace: row.subject_set_namespace ?? '', object: row.subject_set_object ?? '', relation: row.subject_set_relation ?? '' } },
  };
}

function subjectColumns(subject: Subject) {
  return subject.set
    ? { subject_id: null, subject_set_namespace: subject.set.namespace, subject_set_object: subject.set.object, subject_set_relation: subject.set.relation }
    : { subject_id: subject.id, subject_set_namespace: null, subject_set_object: null, subject_set_relation: null };
}

function subjectIs(subject: Subject): SQL {
  return subject.set
    ? and(
        isNull(t.subject_id),
        eq(t.subject_set_namespace, subject.set.namespace),
        eq(t.subject_set_object, subject.set.object),
        eq(t.subject_set_relation, subject.set.relation),
      )!
    : and(eq(t.subject_id, subject.id), isNull(t.subject_set_namespace))!;
}

function matching(projectId: string, query: TupleQuery): SQL {
  return and(
    eq(t.project_id, projectId),
    query.namespace !== undefined ? eq(t.namespace, query.namespace) : undefined,
    query.object !== undefined ? eq(t.object, query.object) : undefined,
    query.relation !== undefined ? eq(t.relation, query.relation) : undefined,
    query.subject ? subjectIs(query.subject) : undefined,
  )!;
}

/** A placeholder of a prepared statement. */
const ph = (name: string) => sql.placeholder(name);

/** The subject columns matched against placeholders `subject_id` or `set_namespace`, `set_object`, `set_relation`. */
function subjectIsPlaceholder(kind: 'id' | 'set'): SQL {
  return kind === 'set'
    ? and(isNull(t.subject_id), eq(t.subject_set_namespace, ph('set_namespace')), eq(t.subject_set_object, ph('set_object')), eq(t.subject_set_relation, ph('set_relation')))!
    : and(eq(t.subject_id, ph('subject_id')), isNull(t.subject_set_namespace))!;
}

const subjectParams = (subject: Subject) =>
  subject.set ? { set_namespace: subject.set.namespace, set_object: subject.set.object, set_relation: subject.set.relation } : { subject_id: subject.id };

/** Relations a direct lookup names at most with a prepared statement; more are looked up with a query built each time. */
const PREPARED_RELATIONS = 8;

/**
 * The tuples of one project as the check engine reads them. The lookups a check makes are prepared once per
 * database handle, so a check spends no time building SQL.
 */
export class SqlTupleReader implements TupleReader {
  constructor(
    private readonly q: Queryable,
    private readonly projectId: string,
  ) {}

  async hasTuple(namespace: string, object: string, relations: readonly string[], subject: Subject): Promise<boolean> {
    const kind = subject.set ? 'set' : 'id';
    const n = relations.length;
    if (n === 0) return false;
    if (n > PREPARED_RELATIONS) {
      const rows = await this.q.orm
        .select({ one: sql<number>`1` })
        .from(t)
        .where(and(eq(t.project_id, this.projectId), eq(t.namespace, namespace), eq(t.object, object), inArray(t.relation, [...relations]), subjectIs(subject)))
        .limit(1);
      return rows.length > 0;
    }
    const statement = prepared(this.q, `permission-has-tuple-${kind}-${n}`, (orm) =>
      orm
        .select({ one: sql<number>`1` })
        .from(t)
        .where(
          and(
            eq(t.project_id, ph('project')),
            eq(t.namespace, ph('namespace')),
            eq(t.object, ph('object')),
            n === 1 ? eq(t.relation, ph('r0')) : inArray(t.relation, Array.from({ length: n }, (_, i) => ph(`r${i}`))),
            subjectIsPlaceholder(kind),
          ),
        )
        .limit(1)
        .prepare(`permission_has_tuple_${kind}_${n}`),
    );
    const params: Record<string, unknown> = { project: this.projectId, namespace, object, ...subjectParams(subject) };
    relations.forEach((relation, i) => (params[`r${i}`] = relation));
    return (await statement.execute(params)).length > 0;
  }

  async subjectSets(namespace: string, object: string, relation: string, limit: number): Promise<SubjectSet[]> {
    const statement = prepared(this.q, 'permission-subject-sets', (orm) =>
      orm
        .select({ namespace: t.subject_set_namespace, object: t.subject_set_object, relation: t.subject_set_relation })
        .from(t)
        .where(and(eq(t.project_id, ph('project')), eq(t.namespace, ph('namespace')), eq(t.object, ph('object')), eq(t.relation, ph('relation')), isNotNull(t.subject_set_namespace)))
        .orderBy(asc(t.seq))
        .limit(ph('limit'))
        .prepare('permission_subject_sets'),
    );
    const rows = await statement.execute({ project: this.projectId, namespace, object, relation, limit });
    return rows.map((r) => ({ namespace: r.namespace ?? '', object: r.object ?? '', relation: r.relation ?? '' }));
  }

  /**
   * One query: the sets stored under `namespace:object#relation` (only of `types`, when given), each with whether
   * `subject` is stored directly in it.
   */
  async subjectSetsHolding(namespace: string, object: string, relation: string, subject: Subject, limit: number, types?: readonly SubjectSetType[]): Promise<SubjectSetHolding[]> {
    const kind = subject.set ? 'set' : 'id';
    const build = (orm: Queryable['orm'], typed: SQL | undefined, values: { subject: SQL; base: SQL[] }) =>
      orm
        .select({
          namespace: t.subject_set_namespace,
          object: t.subject_set_object,
          relation: t.subject_set_relation,
          // Qualified by hand: inside the subquery drizzle's column names would read as the inner table's.
          holds: sql<boolean>`EXISTS (SELECT 1 FROM relation_tuples m WHERE m.project_id = relation_tuples.project_id
            AND m.namespace = relation_tuples.subject_set_namespace AND m.object = relation_tuples.subject_set_object
            AND m.relation = relation_tuples.subject_set_relation AND ${values.subject})`,
        })
        .from(t)
        .where(and(...values.base, isNotNull(t.subject_set_namespace), typed))
        .orderBy(asc(t.seq));
    const map = (rows: { namespace: string | null; object: string | null; relation: string | null; holds: boolean }[]) =>
      rows.map((r) => ({ set: { namespace: r.namespace ?? '', object: r.object ?? '', relation: r.relation ?? '' }, holds: r.holds === true }));
    if (types) {
      const member = subject.set
        ? sql`m.subject_id IS NULL AND m.subject_set_namespace = ${subject.set.namespace} AND m.subject_set_object = ${subject.set.object} AND m.subject_set_relation = ${subject.set.relation}`
        : sql`m.subject_id = ${subject.id} AND m.subject_set_namespace IS NULL`;
      const typed = or(...types.map((type) => and(eq(t.subject_set_namespace, type.namespace), eq(t.subject_set_relation, type.relation))));
      const base = [eq(t.project_id, this.projectId), eq(t.namespace, namespace), eq(t.object, object), eq(t.relation, relation)];
      return map(await build(this.q.orm, typed ?? sql`false`, { subject: member, base }).limit(limit));
    }
    const statement = prepared(this.q, `permission-subject-sets-holding-${kind}`, (orm) =>
      build(orm, undefined, {
        subject:
          kind === 'set'
            ? sql`m.subject_id IS NULL AND m.subject_set_namespace = ${ph('set_namespace')} AND m.subject_set_object = ${ph('set_object')} AND m.subject_set_relation = ${ph('set_relation')}`
            : sql`m.subject_id = ${ph('subject_id')} AND m.subject_set_namespace IS NULL`,
        base: [eq(t.project_id, ph('project')), eq(t.namespace, ph('namespace')), eq(t.object, ph('object')), eq(t.relation, ph('relation'))],
      })
        .limit(ph('limit'))
        .prepare(`permission_subject_sets_holding_${kind}`),
    );
    return map(await statement.execute({ project: this.projectId, namespace, object, relation, limit, ...subjectParams(subject) }));
  }

  /**
   * One query for what a check asks of several relations of one object for a subject id: the direct tuple of each
   * (a probe of the unique key), and the first `limit` subject sets of each, oldest first (an ordered scan of the
   * subject-set index that stops at `limit`), each with whether the subject is stored in it and whether it has
   * subject sets of its own. Prepared once per number of relations, up to `PREPARED_RELATIONS`.
   */
  async lookahead(namespace: string, object: string, relations: readonly string[], subjectId: string, limit: number): Promise<Map<string, Lookahead>> {
    const n = relations.length;
    const out = new Map<string, Lookahead>(relations.map((r) => [r, { direct: false, sets: [] }]));
    if (n === 0) return out;
    const build = (orm: Queryable['orm'], v: { project: unknown; namespace: unknown; object: unknown; subject: unknown; limit: unknown; relations: unknown[] }) => {
      const list = sql.join(v.relations.map((r) => sql`${r}`), sql`, `);
      const rows = sql.join(v.relations.map((r) => sql`(${r})`), sql`, `);
      return orm
        .select({
          relation: sql<string>`a.relation`,
          ns: sql<string | null>`a.ns`,
          obj: sql<string | null>`a.obj`,
          rel: sql<string | null>`a.rel`,
          holds: sql<boolean | null>`a.holds`,
          open: sql<boolean | null>`a.open`,
        })
        .from(
          sql`(SELECT d.relation, NULL::text AS ns, NULL::text AS obj, NULL::text AS rel, NULL::boolean AS holds, NULL::boolean AS open, 0::bigint AS seq
              FROM relation_tuples d
              WHERE d.project_id = ${v.project} AND d.namespace = ${v.namespace} AND d.object = ${v.object} AND d.relation IN (${list})
                AND d.subject_id = ${v.subject} AND d.subject_set_namespace IS NULL
            UNION ALL
            SELECT r.relation, s.subject_set_namespace, s.subject_set_object, s.subject_set_relation,
              EXISTS (SELECT 1 FROM relation_tuples m WHERE m.project_id = ${v.project} AND m.namespace = s.subject_set_namespace
                AND m.object = s.subject_set_object AND m.relation = s.subject_set_relation AND m.subject_id = ${v.subject} AND m.subject_set_namespace IS NULL),
              EXISTS (SELECT 1 FROM relation_tuples o WHERE o.project_id = ${v.project} AND o.namespace = s.subject_set_namespace
                AND o.object = s.subject_set_object AND o.relation = s.subject_set_relation AND o.subject_id IS NULL),
              s.seq
            FROM (VALUES ${rows}) AS r (relation)
            CROSS JOIN LATERAL (
              SELECT t.subject_set_namespace, t.subject_set_object, t.subject_set_relation, t.seq FROM relation_tuples t
              WHERE t.project_id = ${v.project} AND t.namespace = ${v.namespace} AND t.object = ${v.object} AND t.relation = r.relation AND t.subject_id IS NULL
              ORDER BY t.seq LIMIT ${v.limit}
            ) s) a`,
        )
        .orderBy(sql`a.seq`);
    };
    type LookaheadRow = { relation: string; ns: string | null; obj: string | null; rel: string | null; holds: boolean | null; open: boolean | null };
    let rows: LookaheadRow[];
    if (n > PREPARED_RELATIONS) {
      rows = await build(this.q.orm, { project: this.projectId, namespace, object, subject: subjectId, limit, relations: [...relations] });
    } else {
      const statement = prepared(this.q, `permission-lookahead-${n}`, (orm) =>
        build(orm, {
          project: ph('project'),
          namespace: ph('namespace'),
          object: ph('object'),
          subject: ph('subject'),
          limit: ph('limit'),
          relations: Array.from({ length: n }, (_, i) => ph(`r${i}`)),
        }).prepare(`permission_lookahead_${n}`),
      );
      const params: Record<string, unknown> = { project: this.projectId, namespace, object, subject: subjectId, limit };
      relations.forEach((relation, i) => (params[`r${i}`] = relation));
      rows = await statement.execute(params);
    }
    for (const row of rows) {
      const entry = out.get(row.relation);
      if (!entry) continue;
      if (row.ns === null) entry.direct = true;
      else entry.sets.push({ set: { namespace: row.ns, object: row.obj ?? '', relation: row.rel ?? '' }, holds: row.holds === true, open: row.open === true });
    }
    return out;
  }

  async tuplesOf(namespace: string, object: string, relation: string, limit: number): Promise<RelationTuple[]> {
    const statement = prepared(this.q, 'permission-tuples-of', (orm) =>
      orm
        .select()
        .from(t)
        .where(and(eq(t.project_id, ph('project')), eq(t.namespace, ph('namespace')), eq(t.object, ph('object')), eq(t.relation, ph('relation'))))
        .orderBy(asc(t.seq))
        .limit(ph('limit'))
        .prepare('permission_tuples_of'),
    );
    return (await statement.execute({ project: this.projectId, namespace, object, relation, limit })).map(tupleOfRow);
  }
}

/** Stores tuples (a tuple stored already stays as it is); answers those that were not stored before. */
export async function insertTuples(q: Queryable, projectId: string, tuples: readonly RelationTuple[], now: Date): Promise<RelationTuple[]> {
  if (tuples.length === 0) return [];
  const rows = await q.orm
    .insert(t)
    .values(tuples.map((tuple) => ({ project_id: projectId, namespace: tuple.namespace, object: tuple.object, relation: tuple.relation, ...subjectColumns(tuple.subject), created_at: now })))
    .onConflictDoNothing()
    .returning();
  return rows.map(tupleOfRow);
}

/** Deletes these exact tuples (one that is not stored is no error); answers those that were stored. */
export async function deleteTuples(q: Queryable, projectId: string, tuples: readonly RelationTuple[]): Promise<RelationTuple[]> {
  const removed: RelationTuple[] = [];
  for (const tuple of tuples) {
    for (const row of await q.orm.delete(t).where(matching(projectId, tuple)).returning()) removed.push(tupleOfRow(row));
  }
  return removed;
}

/** Deletes every tuple the query matches; answers how many. */
export async function deleteMatching(q: Queryable, projectId: string, query: TupleQuery): Promise<number> {
  const rows = await q.orm.delete(t).where(matching(projectId, query)).returning({ seq: t.seq });
  return rows.length;
}

export async function countMatching(q: Queryable, projectId: string, query: TupleQuery): Promise<number> {
  const [row] = await q.orm.select({ n: sql<number>`count(*)::int` }).from(t).where(matching(projectId, query));
  return row?.n ?? 0;
}

/** One page of the tuples the query matches, oldest first, and the position of the last one when more follow. */
export async function listTuples(q: Queryable, projectId: string, query: TupleQuery, pageSize: number, after: number | null): Promise<{ tuples: RelationTuple[]; next: number | null }> {
  const rows = await q.orm
    .select()
    .from(t)
    .where(and(matching(projectId, query), after !== null ? gt(t.seq, after) : undefined))
    .orderBy(asc(t.seq))
    .limit(pageSize + 1);
  const page = rows.slice(0, pageSize);
  return { tuples: page.map(tupleOfRow), next: rows.length > pageSize ? page.at(-1)!.seq : null };
}

/** Every tuple of a project goes with it. */
export async function deleteProjectTuples(q: Queryable, projectId: string): Promise<void> {
  await q.orm.delete(t).where(eq(t.project_id, projectId));
}

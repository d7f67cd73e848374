/**
 * The relation tuples of one project in the database: what a check reads (one query per step, each served by
 * the unique key) and what the API writes and lists.
 */
import { and, asc, eq, gt, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Queryable } from '../kernel/queryable';
import type { SubjectSetHolding, SubjectSetType, TupleReader } from '../../shared/permissions/engine';
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

/** The tuples of one project as the check engine reads them. */
export class SqlTupleReader implements TupleReader {
  constructor(
    private readonly q: Queryable,
    private readonly projectId: string,
  ) {}

  async hasTuple(namespace: string, object: string, relations: readonly string[], subject: Subject): Promise<boolean> {
    const rows = await this.q.orm
      .select({ one: sql<number>`1` })
      .from(t)
      .where(
        and(
          eq(t.project_id, this.projectId),
          eq(t.namespace, namespace),
          eq(t.object, object),
          relations.length === 1 ? eq(t.relation, relations[0]!) : inArray(t.relation, [...relations]),
          subjectIs(subject),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  async subjectSets(namespace: string, object: string, relation: string, limit: number): Promise<SubjectSet[]> {
    const rows = await this.q.orm
      .select({ namespace: t.subject_set_namespace, object: t.subject_set_object, relation: t.subject_set_relation })
      .from(t)
      .where(and(eq(t.project_id, this.projectId), eq(t.namespace, namespace), eq(t.object, object), eq(t.relation, relation), isNotNull(t.subject_set_namespace)))
      .orderBy(asc(t.seq))
      .limit(limit);
    return rows.map((r) => ({ namespace: r.namespace ?? '', object: r.object ?? '', relation: r.relation ?? '' }));
  }

  /** One query: the sets stored under `namespace:object#relation`, each with whether `subject` is stored in it. */
  async subjectSetsHolding(namespace: string, object: string, relation: string, subject: Subject, limit: number, types?: readonly SubjectSetType[]): Promise<SubjectSetHolding[]> {
    const member = subject.set
      ? sql`m.subject_id IS NULL AND m.subject_set_namespace = ${subject.set.namespace} AND m.subject_set_object = ${subject.set.object} AND m.subject_set_relation = ${subject.set.relation}`
      : sql`m.subject_id = ${subject.id} AND m.subject_set_namespace IS NULL`;
    const rows = await this.q.orm
      .select({
        namespace: t.subject_set_namespace,
        object: t.subject_set_object,
        relation: t.subject_set_relation,
        // Qualified by hand: inside the subquery drizzle's column names would read as the inner table's.
        holds: sql<boolean>`EXISTS (SELECT 1 FROM relation_tuples m WHERE m.project_id = relation_tuples.project_id
          AND m.namespace = relation_tuples.subject_set_namespace AND m.object = relation_tuples.subject_set_object
          AND m.relation = relation_tuples.subject_set_relation AND ${member})`,
      })
      .from(t)
      .where(
        and(
          eq(t.project_id, this.projectId),
          eq(t.namespace, namespace),
          eq(t.object, object),
          eq(t.relation, relation),
          isNotNull(t.subject_set_namespace),
          types ? or(...types.map((type) => and(eq(t.subject_set_namespace, type.namespace), eq(t.subject_set_relation, type.relation)))) : undefined,
        ),
      )
      .orderBy(asc(t.seq))
      .limit(limit);
    return rows.map((r) => ({ set: { namespace: r.namespace ?? '', object: r.object ?? '', relation: r.relation ?? '' }, holds: r.holds === true }));
  }

  async tuplesOf(namespace: string, object: string, relation: string, limit: number): Promise<RelationTuple[]> {
    const rows = await this.q.orm
      .select()
      .from(t)
      .where(and(eq(t.project_id, this.projectId), eq(t.namespace, namespace), eq(t.object, object), eq(t.relation, relation)))
      .orderBy(asc(t.seq))
      .limit(limit);
    return rows.map(tupleOfRow);
  }
}

/** Stores tuples (a tuple stored already stays as it is). */
export async function insertTuples(q: Queryable, projectId: string, tuples: readonly RelationTuple[], now: Date): Promise<void> {
  if (tuples.length === 0) return;
  await q.orm
    .insert(t)
    .values(tuples.map((tuple) => ({ project_id: projectId, namespace: tuple.namespace, object: tuple.object, relation: tuple.relation, ...subjectColumns(tuple.subject), created_at: now })))
    .onConflictDoNothing();
}

/** Deletes these exact tuples (one that is not stored is no error). */
export async function deleteTuples(q: Queryable, projectId: string, tuples: readonly RelationTuple[]): Promise<void> {
  for (const tuple of tuples) {
    await q.orm.delete(t).where(matching(projectId, tuple));
  }
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

import { sql } from 'drizzle-orm';
import { bigint, check, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

const tstz = { withTimezone: true } as const;

/*
 * The relation tuples ("relationships") of each project's permission service. A subject is either an id
 * (`subject_id`) or a subject set (`subject_set_*`, all three present), never both. `seq` orders a project's
 * tuples for paging. The unique key serves the lookups a check makes: a tuple itself, and the tuples of one
 * `namespace:object#relation`; the second index serves "which sets is this subject stored in" and the subject
 * filter of the list. The third holds only subject-set tuples, in `seq` order per `namespace:object#relation`
 * with the set itself: a check reads the first sets of a relation from it alone and stops at its limit, however
 * many subject ids the relation also holds.
 */
export const relationTuples = pgTable(
  'relation_tuples',
  {
    seq: bigint({ mode: 'number' }).generatedAlwaysAsIdentity().primaryKey(),
    project_id: uuid().notNull(),
    namespace: text().notNull(),
    object: text().notNull(),
    relation: text().notNull(),
    subject_id: text(),
    subject_set_namespace: text(),
    subject_set_object: text(),
    subject_set_relation: text(),
    created_at: timestamp(tstz).notNull(),
  },
  (t) => [
    unique('relation_tuples_key')
      .on(t.project_id, t.namespace, t.object, t.relation, t.subject_id, t.subject_set_namespace, t.subject_set_object, t.subject_set_relation)
      .nullsNotDistinct(),
    index('relation_tuples_sets_idx')
      .on(t.project_id, t.namespace, t.object, t.relation, t.seq, t.subject_set_namespace, t.subject_set_object, t.subject_set_relation)
      .where(sql`subject_id IS NULL`),
    index('relation_tuples_subject_idx').on(t.project_id, t.subject_id, t.subject_set_namespace, t.subject_set_object, t.subject_set_relation),
    check(
      'relation_tuples_subject_check',
      sql`(${t.subject_id} IS NOT NULL AND ${t.subject_set_namespace} IS NULL AND ${t.subject_set_object} IS NULL AND ${t.subject_set_relation} IS NULL)
        OR (${t.subject_id} IS NULL AND ${t.subject_set_namespace} IS NOT NULL AND ${t.subject_set_object} IS NOT NULL AND ${t.subject_set_relation} IS NOT NULL)`,
    ),
  ],
);

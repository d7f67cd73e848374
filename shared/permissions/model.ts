/**
 * The vocabulary of a project's permissions, as Ory Keto speaks it: relation tuples ("relationships") between an
 * object and a subject, and the namespaces the project's Ory Permission Language declares.
 */

export interface SubjectSet {
  namespace: string;
  object: string;
  relation: string;
}

/** Either a plain subject id or a subject set (everyone who has `relation` on `namespace:object`). */
export type Subject = { id: string; set?: undefined } | { id?: undefined; set: SubjectSet };

export interface RelationTuple {
  namespace: string;
  object: string;
  relation: string;
  subject: Subject;
}

/** A subject in Keto's wire notation: `id` or `namespace:object#relation`. */
export function subjectToString(subject: Subject): string {
  return subject.set ? `${subject.set.namespace}:${subject.set.object}#${subject.set.relation}` : subject.id;
}

export function tupleToString(tuple: RelationTuple): string {
  return `${tuple.namespace}:${tuple.object}#${tuple.relation}@${subjectToString(tuple.subject)}`;
}

export function sameSubject(a: Subject, b: Subject): boolean {
  if (a.set && b.set) {
    return a.set.namespace === b.set.namespace && a.set.object === b.set.object && a.set.relation === b.set.relation;
  }
  return a.id !== undefined && a.id === b.id;
}

/** A type a relation may point at: a namespace (its objects are subjects) or a subject set of it. */
export interface RelationType {
  namespace: string;
  /** Set for `SubjectSet<Namespace, "relation">`. */
  relation?: string;
}

/**
 * The body of a permit, as the permission language allows it:
 * - `computed`: `this.related.R.includes(ctx.subject)` or `this.permits.R(ctx)`, the subject has R on this object;
 * - `traverse`: `this.related.R.traverse((x) => x.permits.P(ctx))` (or `x.related.P.includes(ctx.subject)`), the
 *   subject has P on some object this one points at through R;
 * - `and` / `or`: every / some child holds; `not`: the child does not hold.
 */
export type Rewrite =
  | { type: 'computed'; relation: string }
  | { type: 'traverse'; relation: string; computedRelation: string }
  | { type: 'and' | 'or'; children: Rewrite[] }
  | { type: 'not'; child: Rewrite };

export interface Relation {
  name: string;
  /** Declared types of a `related` entry (empty for a permit). */
  types: RelationType[];
  /** Present for a permit. */
  rewrite?: Rewrite;
}

export interface Namespace {
  name: string;
  relations: Relation[];
}

export function findRelation(namespaces: readonly Namespace[], namespace: string, relation: string): Relation | undefined {
  return namespaces.find((n) => n.name === namespace)?.relations.find((r) => r.name === relation);
}

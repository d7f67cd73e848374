/**
 * Relation tuples kept in memory, in insertion order: the tuple store of unit tests and of checks over a handful of
 * tuples given inline.
 */
import type { Lookahead, SubjectSetHolding, SubjectSetType, TupleReader } from './engine';
import { sameSubject, type RelationTuple, type Subject, type SubjectSet } from './model';

export class MemoryTupleStore implements TupleReader {
  private readonly tuples: RelationTuple[] = [];

  constructor(tuples: Iterable<RelationTuple> = []) {
    for (const tuple of tuples) this.add(tuple);
  }

  add(tuple: RelationTuple): void {
    if (!this.tuples.some((t) => same(t, tuple))) this.tuples.push(tuple);
  }

  remove(tuple: RelationTuple): void {
    const index = this.tuples.findIndex((t) => same(t, tuple));
    if (index >= 0) this.tuples.splice(index, 1);
  }

  async hasTuple(namespace: string, object: string, relations: readonly string[], subject: Subject): Promise<boolean> {
    return this.tuples.some((t) => t.namespace === namespace && t.object === object && relations.includes(t.relation) && sameSubject(t.subject, subject));
  }

  async subjectSets(namespace: string, object: string, relation: string, limit: number): Promise<SubjectSet[]> {
    return this.of(namespace, object, relation)
      .flatMap((t) => (t.subject.set ? [t.subject.set] : []))
      .slice(0, limit);
  }

  async subjectSetsHolding(namespace: string, object: string, relation: string, subject: Subject, limit: number, types?: readonly SubjectSetType[]): Promise<SubjectSetHolding[]> {
    const sets = this.of(namespace, object, relation)
      .flatMap((t) => (t.subject.set ? [t.subject.set] : []))
      .filter((set) => !types || types.some((type) => type.namespace === set.namespace && type.relation === set.relation))
      .slice(0, limit);
    return Promise.all(sets.map(async (set) => ({ set, holds: await this.hasTuple(set.namespace, set.object, [set.relation], subject) })));
  }

  async lookahead(namespace: string, object: string, relations: readonly string[], subjectId: string, limit: number): Promise<Map<string, Lookahead>> {
    const out = new Map<string, Lookahead>();
    for (const relation of relations) {
      out.set(relation, {
        direct: await this.hasTuple(namespace, object, [relation], { id: subjectId }),
        sets: (await this.subjectSetsHolding(namespace, object, relation, { id: subjectId }, limit)).map((held) => ({
          ...held,
          open: this.of(held.set.namespace, held.set.object, held.set.relation).some((t) => t.subject.set !== undefined),
        })),
      });
    }
    return out;
  }

  async tuplesOf(namespace: string, object: string, relation: string, limit: number): Promise<RelationTuple[]> {
    return this.of(namespace, object, relation).slice(0, limit);
  }

  private of(namespace: string, object: string, relation: string): RelationTuple[] {
    return this.tuples.filter((t) => t.namespace === namespace && t.object === object && t.relation === relation);
  }
}

function same(a: RelationTuple, b: RelationTuple): boolean {
  return a.namespace === b.namespace && a.object === b.object && a.relation === b.relation && sameSubject(a.subject, b.subject);
}

/** `namespace:object#relation@subject` or `…@namespace:object#relation`, Keto's text form of a tuple. */
export function parseTuple(text: string): RelationTuple {
  const match = /^([^:#@]+):([^#@]+)#([^@]+)@(.+)$/.exec(text);
  if (!match) throw new Error(`not a relation tuple: ${text}`);
  const [, namespace, object, relation, subject] = match as unknown as [string, string, string, string, string];
  const set = /^([^:#@]+):([^#@]+)#(.*)$/.exec(subject);
  return {
    namespace,
    object,
    relation,
    subject: set ? { set: { namespace: set[1]!, object: set[2]!, relation: set[3]! } } : { id: subject },
  };
}

import type { Relationship, RelationshipApi } from '@ory/client';
import type { SubjectSetHolding, SubjectSetType, TupleReader } from '../../../shared/permissions/engine';
import type { RelationTuple, Subject, SubjectSet } from '../../../shared/permissions/model';

const PAGE = 100;

const subjectQuery = (subject: Subject) =>
  subject.set
    ? { subjectSetNamespace: subject.set.namespace, subjectSetObject: subject.set.object, subjectSetRelation: subject.set.relation }
    : { subjectId: subject.id };

export function tupleOfRelationship(r: Relationship): RelationTuple {
  return {
    namespace: r.namespace,
    object: r.object,
    relation: r.relation,
    subject: r.subject_set ? { set: r.subject_set } : { id: r.subject_id ?? '' },
  };
}

export function relationshipOfTuple(t: RelationTuple): Relationship {
  return { namespace: t.namespace, object: t.object, relation: t.relation, ...(t.subject.set ? { subject_set: t.subject.set } : { subject_id: t.subject.id }) };
}

/**
 * The project's tuples read through its relationship API, for the check engine that explains an answer: a
 * debugging aid, so each step is one list call (a set's members, one call per set).
 */
export class RemoteTupleReader implements TupleReader {
  constructor(private readonly api: RelationshipApi) {}

  private async list(query: Parameters<RelationshipApi['getRelationships']>[0], limit: number): Promise<Relationship[]> {
    const out: Relationship[] = [];
    let pageToken: string | undefined;
    do {
      const { data } = await this.api.getRelationships({ ...query, pageSize: Math.min(PAGE, limit - out.length), ...(pageToken ? { pageToken } : {}) });
      out.push(...(data.relation_tuples ?? []));
      pageToken = data.next_page_token || undefined;
    } while (pageToken && out.length < limit);
    return out.slice(0, limit);
  }

  async hasTuple(namespace: string, object: string, relations: readonly string[], subject: Subject): Promise<boolean> {
    for (const relation of relations) {
      if ((await this.list({ namespace, object, relation, ...subjectQuery(subject) }, 1)).length > 0) return true;
    }
    return false;
  }

  async subjectSets(namespace: string, object: string, relation: string, limit: number): Promise<SubjectSet[]> {
    const rows = await this.list({ namespace, object, relation }, Math.min(limit, 1000));
    return rows.flatMap((r) => (r.subject_set ? [r.subject_set] : []));
  }

  async subjectSetsHolding(namespace: string, object: string, relation: string, subject: Subject, limit: number, types?: readonly SubjectSetType[]): Promise<SubjectSetHolding[]> {
    const sets = (await this.subjectSets(namespace, object, relation, types ? 1000 : limit))
      .filter((set) => !types || types.some((type) => type.namespace === set.namespace && type.relation === set.relation))
      .slice(0, limit);
    const out: SubjectSetHolding[] = [];
    for (const set of sets) out.push({ set, holds: await this.hasTuple(set.namespace, set.object, [set.relation], subject) });
    return out;
  }

  async tuplesOf(namespace: string, object: string, relation: string, limit: number): Promise<RelationTuple[]> {
    return (await this.list({ namespace, object, relation }, Math.min(limit, 1000))).map(tupleOfRelationship);
  }
}

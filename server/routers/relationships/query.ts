import type { SubjectInput, SubjectSetInput } from '../../../shared/schemas/relationships';

/** The filters of a relationships procedure, as @ory/client's RelationshipApi takes them. */
export function relationQuery(input: {
  namespace?: string | undefined;
  object?: string | undefined;
  relation?: string | undefined;
  subjectId?: string | undefined;
  subjectSet?: SubjectSetInput | undefined;
}) {
  return {
    ...(input.namespace !== undefined ? { namespace: input.namespace } : {}),
    ...(input.object !== undefined ? { object: input.object } : {}),
    ...(input.relation !== undefined ? { relation: input.relation } : {}),
    ...(input.subjectId !== undefined ? { subjectId: input.subjectId } : {}),
    ...(input.subjectSet
      ? { subjectSetNamespace: input.subjectSet.namespace, subjectSetObject: input.subjectSet.object, subjectSetRelation: input.subjectSet.relation }
      : {}),
  };
}

/** A subject as the filters name it. */
export const subjectFilter = (subject: SubjectInput) => ('id' in subject ? { subjectId: subject.id } : { subjectSet: subject.set });

/** A subject in the wire's body fields. */
export const subjectBody = (subject: SubjectInput) => ('id' in subject ? { subject_id: subject.id } : { subject_set: subject.set });

import type { RelationshipView, SubjectInput } from '../../../../shared/schemas/relationships';

/** A subject typed as Keto writes it: `id`, or `namespace:object#relation` for a subject set; null when empty. */
export function subjectOfText(text: string): SubjectInput | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const set = /^([^:#\s]+):([^#]+)#(.*)$/.exec(trimmed);
  return set ? { set: { namespace: set[1]!, object: set[2]!, relation: set[3]! } } : { id: trimmed };
}

export const subjectText = (subject: SubjectInput) => ('id' in subject ? subject.id : `${subject.set.namespace}:${subject.set.object}#${subject.set.relation}`);

export function relationshipSubjectText(r: RelationshipView): string {
  return r.subject_set ? `${r.subject_set.namespace}:${r.subject_set.object}#${r.subject_set.relation}` : (r.subject_id ?? '');
}

/** `namespace:object#relation@subject`, Keto's text form of a relationship. */
export const tupleText = (r: RelationshipView) => `${r.namespace}:${r.object}#${r.relation}@${relationshipSubjectText(r)}`;

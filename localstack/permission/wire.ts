/**
 * Keto's wire format: relation tuples and queries in JSON bodies and URL queries, with Keto's answers to what
 * is missing or malformed (its texts, and whether they are a `message` or a `reason`).
 */
import { z } from 'zod';
import type { ExpandTree } from '../../shared/permissions/engine';
import type { RelationTuple, Subject } from '../../shared/permissions/model';
import type { TupleQuery } from './store';

/** A 4xx of the permission API: `message` is herodot's `WithError`, `reason` its `WithReason`. */
export class KetoError extends Error {
  constructor(
    readonly status: number,
    readonly text: { message?: string; reason?: string },
  ) {
    super(text.message ?? text.reason ?? `HTTP ${status}`);
  }
}

export const badRequest = (message: string) => new KetoError(400, { message });
export const nilSubject = () => badRequest('subject is not allowed to be nil');
export const duplicateSubject = () => badRequest('exactly one of subject_set or subject_id has to be provided');
export const incompleteSubject = () => badRequest('incomplete subject, provide "subject_id" or a complete "subject_set.*"');
export const incompleteTuple = () => badRequest('incomplete tuple, provide "namespace", "object", "relation", and a subject');
export const droppedSubjectKey = () => badRequest('provide "subject_id" or "subject_set.*"; support for "subject" was dropped');
export const unknownNamespace = (name: string) => new KetoError(404, { reason: `Unknown namespace with name ${JSON.stringify(name)}.` });

export const QUERY_KEYS = ['namespace', 'object', 'relation', 'subject_id', 'subject_set.namespace', 'subject_set.object', 'subject_set.relation'] as const;

/** Fastify's parsed query: a repeated key is a list; Keto reads the first value. */
export type RawQuery = Record<string, string | string[] | undefined>;

const first = (query: RawQuery, key: string): string | undefined => {
  const value = query[key];
  return Array.isArray(value) ? value[0] : value;
};
const has = (query: RawQuery, key: string) => query[key] !== undefined;

/** Keto's RelationQuery from a URL query. */
export function queryFromUrl(query: RawQuery): TupleQuery {
  if (has(query, 'subject')) throw droppedSubjectKey();
  const setKeys = ['subject_set.namespace', 'subject_set.object', 'subject_set.relation'];
  const anySet = setKeys.some((k) => has(query, k));
  let subject: Subject | undefined;
  if (has(query, 'subject_id') && anySet) throw duplicateSubject();
  if (has(query, 'subject_id')) subject = { id: first(query, 'subject_id')! };
  else if (setKeys.every((k) => has(query, k))) {
    subject = { set: { namespace: first(query, 'subject_set.namespace')!, object: first(query, 'subject_set.object')!, relation: first(query, 'subject_set.relation')! } };
  } else if (anySet) throw incompleteSubject();
  return {
    ...(has(query, 'namespace') ? { namespace: first(query, 'namespace')! } : {}),
    ...(has(query, 'object') ? { object: first(query, 'object')! } : {}),
    ...(has(query, 'relation') ? { relation: first(query, 'relation')! } : {}),
    ...(subject ? { subject } : {}),
  };
}

/** Keto's RelationTuple from a URL query: every part present. */
export function tupleFromUrl(query: RawQuery): RelationTuple {
  const q = queryFromUrl(query);
  if (!q.subject) throw nilSubject();
  if (q.namespace === undefined || q.object === undefined || q.relation === undefined) throw incompleteTuple();
  return { namespace: q.namespace, object: q.object, relation: q.relation, subject: q.subject };
}

const subjectSetJson = z.object({ namespace: z.string(), object: z.string(), relation: z.string() });
const tupleJson = z.object({
  namespace: z.string().optional(),
  object: z.string().optional(),
  relation: z.string().optional(),
  subject_id: z.string().optional(),
  subject_set: subjectSetJson.optional(),
});
export type TupleJson = z.infer<typeof tupleJson>;

/** Keto's JSON decoding error, in its words. */
function unmarshalError(error: z.ZodError): string {
  const issue = error.issues[0];
  const field = issue?.path.join('.') ?? '';
  return issue?.code === 'invalid_type' ? `json: cannot unmarshal ${field ? `into field ${field}` : 'value'}: expected ${issue.expected}` : (issue?.message ?? 'invalid JSON');
}

/** A relation tuple from a JSON body (`subject_id` or `subject_set`, not both, not neither). */
export function tupleFromJson(body: unknown, prefix = ''): RelationTuple {
  const parsed = tupleJson.safeParse(body);
  if (!parsed.success) throw badRequest(prefix + unmarshalError(parsed.error));
  const json = parsed.data;
  if (json.subject_id !== undefined && json.subject_set !== undefined) throw duplicateSubject();
  const subject: Subject | undefined = json.subject_id !== undefined ? { id: json.subject_id } : json.subject_set ? { set: json.subject_set } : undefined;
  if (!subject) throw nilSubject();
  return { namespace: json.namespace ?? '', object: json.object ?? '', relation: json.relation ?? '', subject };
}

export function tupleJsonOf(tuple: RelationTuple): TupleJson {
  return {
    namespace: tuple.namespace,
    object: tuple.object,
    relation: tuple.relation,
    ...(tuple.subject.set ? { subject_set: tuple.subject.set } : { subject_id: tuple.subject.id }),
  };
}

/** The URL query of a tuple, as Keto's Location header of a created tuple. */
export function tupleUrlQuery(tuple: RelationTuple): string {
  const params = new URLSearchParams({ namespace: tuple.namespace, relation: tuple.relation, object: tuple.object });
  if (tuple.subject.set) {
    params.set('subject_set.namespace', tuple.subject.set.namespace);
    params.set('subject_set.object', tuple.subject.set.object);
    params.set('subject_set.relation', tuple.subject.set.relation);
  } else params.set('subject_id', tuple.subject.id);
  return params.toString();
}

/** Keto's `max-depth` query parameter: absent is 0 (the global limit). */
export function maxDepthOf(query: RawQuery): number {
  const raw = first(query, 'max-depth');
  if (raw === undefined) return 0;
  if (!/^[+-]?(0x[0-9a-f]+|0o?[0-7]+|0b[01]+|\d+)$/i.test(raw.trim()) || raw.trim() !== raw) {
    throw badRequest(`unable to parse 'max-depth' query parameter to int: strconv.ParseInt: parsing ${JSON.stringify(raw)}: invalid syntax`);
  }
  return Number.parseInt(raw, raw.toLowerCase().includes('0x') ? 16 : 10) || 0;
}

/**
 * Keto's expand tree on the wire: each node's `tuple` names only its subject (`subject_id` or `subject_set`; neither
 * for a compound part of a rule or a negation); a node without children is a `leaf`, whatever it stood for.
 */
export interface ExpandTreeJson {
  type: 'union' | 'intersection' | 'exclusion' | 'leaf';
  tuple: { namespace: string; object: string; relation: string; subject_id?: string; subject_set?: { namespace: string; object: string; relation: string } };
  children?: ExpandTreeJson[];
}

export function expandTreeJson(tree: ExpandTree): ExpandTreeJson {
  const children = tree.children.map(expandTreeJson);
  const subject = tree.subject;
  return {
    type: children.length === 0 ? 'leaf' : tree.type,
    tuple: { namespace: '', object: '', relation: '', ...(subject?.set ? { subject_set: subject.set } : subject ? { subject_id: subject.id } : {}) },
    ...(children.length > 0 ? { children } : {}),
  };
}

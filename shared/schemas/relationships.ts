import type { ExpandedPermissionTree, Relationship } from '@ory/client';
import { z } from 'zod';
import { formatNumber } from '../domain/format';
import { uuidSchema } from './common';
import { conformsTo } from './wire';

/**
 * Relationships (relation tuples) and permission rules of a project (spec §2 permissions routes, §7), as the
 * console's procedures take and answer them.
 */

const MAX_NAME = 256;
const part = (what: string) =>
  z
    .string({ error: `Enter the ${what}.` })
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(MAX_NAME, `The ${what} has at most ${MAX_NAME} characters.`);

export const subjectSetSchema = z.object({
  namespace: part('subject set’s namespace'),
  object: part('subject set’s object'),
  /** Empty for "the object itself" (`Folder:docs`), as the traverse of a permit needs it. */
  relation: z.string().trim().max(MAX_NAME, `The subject set’s relation has at most ${MAX_NAME} characters.`),
});
export type SubjectSetInput = z.infer<typeof subjectSetSchema>;

/** The subject of a relationship: a subject id (a user id, any string) or a subject set. */
export const subjectSchema = z.union([z.object({ id: part('subject id') }), z.object({ set: subjectSetSchema })], {
  error: 'Name a subject: a subject id, or a subject set (namespace, object and relation).',
});
export type SubjectInput = z.infer<typeof subjectSchema>;

export const relationshipSchema = conformsTo<Relationship>()(
  z.object({
    namespace: z.string(),
    object: z.string(),
    relation: z.string(),
    subject_id: z.string().optional(),
    subject_set: z.object({ namespace: z.string(), object: z.string(), relation: z.string() }).optional(),
  }),
);
export type RelationshipView = z.infer<typeof relationshipSchema>;

const filters = {
  namespace: part('namespace').optional(),
  object: part('object').optional(),
  relation: part('relation').optional(),
  subjectId: part('subject id').optional(),
  subjectSet: subjectSetSchema.optional(),
};
const oneSubjectFilter = (v: { subjectId?: string | undefined; subjectSet?: unknown }) => v.subjectId === undefined || v.subjectSet === undefined;
const oneSubjectMessage = { message: 'Filter by a subject id or a subject set, not both.', path: ['subjectSet'] };

export const relationshipsListInput = z
  .object({ projectId: uuidSchema, ...filters, pageToken: z.string().max(1024, 'The page token is not valid.').optional() })
  .refine(oneSubjectFilter, oneSubjectMessage);
export const relationshipsListOutput = z.object({ relationships: z.array(relationshipSchema), nextPageToken: z.string().nullable() });

export const relationshipInput = z.object({
  projectId: uuidSchema,
  namespace: part('namespace'),
  object: part('object'),
  relation: part('relation'),
  subject: subjectSchema,
});

/** Deleting every relationship a query matches needs a namespace (as Ory's API) and the count the caller confirmed. */
export const relationshipsQueryInput = z
  .object({ projectId: uuidSchema, ...filters, namespace: part('namespace') })
  .refine(oneSubjectFilter, oneSubjectMessage);
export const relationshipsCountOutput = z.object({ count: z.number().int(), capped: z.boolean() });
export const deleteMatchingInput = z
  .object({
    projectId: uuidSchema,
    ...filters,
    namespace: part('namespace'),
    expectedCount: z.number({ error: 'Confirm how many relationships to delete.' }).int().min(1, 'Nothing to delete: no relationship matches.').max(1_000_000),
  })
  .refine(oneSubjectFilter, oneSubjectMessage);
export const deleteMatchingOutput = z.object({ deleted: z.number().int() });

export const okOutput = z.object({ ok: z.literal(true) });
export const projectInput = z.object({ projectId: uuidSchema });

// ---- rules ----

export const MAX_OPL_LENGTH = 200_000;
export const oplSchema = z.string().max(MAX_OPL_LENGTH, `The rules have at most ${formatNumber(MAX_OPL_LENGTH)} characters.`);

/** A problem of the rules at a line and column (both from 1). */
export const oplProblemSchema = z.object({
  message: z.string(),
  line: z.number().int(),
  column: z.number().int(),
  endLine: z.number().int(),
  endColumn: z.number().int(),
});
export type OplProblem = z.infer<typeof oplProblemSchema>;

export const relationOverviewSchema = z.object({
  name: z.string(),
  /** `relation`: stored tuples (`related`); `permission`: computed by a permit. */
  kind: z.enum(['relation', 'permission']),
  /** What a relation may point at: `User`, or `Group#members` for a subject set. */
  types: z.array(z.string()),
  /** The permit's rule, as the language writes it. */
  rule: z.string().optional(),
});
export const namespaceOverviewSchema = z.object({ name: z.string(), relations: z.array(relationOverviewSchema) });
export type NamespaceOverview = z.infer<typeof namespaceOverviewSchema>;

/**
 * Keto's feature flags of the project's permission config: `strict_mode` (tuples never stand in for a permit,
 * subject sets only of declared types) and `expand_rewrites` (an expansion follows the permits' rules).
 */
export const permissionFeatureFlagsForm = z.object({ strict_mode: z.boolean(), expand_rewrites: z.boolean() });
export type PermissionFeatureFlags = z.infer<typeof permissionFeatureFlagsForm>;

export const rulesOutput = z.object({
  opl: z.string(),
  /** The project revision the text was read from; `set` sends it back to refuse a stale edit. */
  revisionId: z.string().nullable(),
  namespaces: z.array(namespaceOverviewSchema),
  problems: z.array(oplProblemSchema),
  featureFlags: permissionFeatureFlagsForm,
});
export const rulesValidateInput = z.object({ projectId: uuidSchema, opl: oplSchema });
export const rulesValidateOutput = z.object({ valid: z.boolean(), problems: z.array(oplProblemSchema), namespaces: z.array(namespaceOverviewSchema) });
export const rulesSetInput = z.object({ projectId: uuidSchema, opl: oplSchema, revisionId: uuidSchema.optional() });
/** The flags to change (one left out keeps its value), on the revision they were read from when given. */
export const rulesSetFeatureFlagsInput = permissionFeatureFlagsForm
  .partial()
  .extend({ projectId: uuidSchema, revisionId: uuidSchema.optional() })
  .refine((v) => v.strict_mode !== undefined || v.expand_rewrites !== undefined, { error: 'Give strict_mode or expand_rewrites to change' });

// ---- checks ----

export const MAX_CHECK_DEPTH = 5;
const maxDepth = z.number().int('The depth is a whole number.').min(1, 'The depth is at least 1.').max(MAX_CHECK_DEPTH, `The depth is at most ${MAX_CHECK_DEPTH}.`);

export const permissionCheckInput = z.object({
  projectId: uuidSchema,
  namespace: part('namespace'),
  object: part('object'),
  relation: part('relation'),
  subject: subjectSchema,
  maxDepth: maxDepth.optional(),
});

/** One step of the explanation: what was asked, how it came out, the tuple it stands on and the rule it applied. */
export interface ExplainNode {
  kind: 'check' | 'direct' | 'rule' | 'and' | 'or' | 'not' | 'computed' | 'traverse' | 'subject-set' | 'limit';
  namespace: string;
  object: string;
  relation: string;
  result: 'member' | 'not_member' | 'unknown';
  tuple?: RelationshipView | undefined;
  rule?: string | undefined;
  limitation?: string | undefined;
  children: ExplainNode[];
}
export const explainNodeSchema: z.ZodType<ExplainNode> = z.lazy(() =>
  z.object({
    kind: z.enum(['check', 'direct', 'rule', 'and', 'or', 'not', 'computed', 'traverse', 'subject-set', 'limit']),
    namespace: z.string(),
    object: z.string(),
    relation: z.string(),
    result: z.enum(['member', 'not_member', 'unknown']),
    tuple: relationshipSchema.optional(),
    rule: z.string().optional(),
    limitation: z.string().optional(),
    children: z.array(explainNodeSchema),
  }),
);

export const permissionCheckOutput = z.object({
  /** The permission service's answer. */
  allowed: z.boolean(),
  /** How the project's rules and tuples reach that answer, step by step. */
  explanation: explainNodeSchema,
  /** The steps' answer, when the explanation reached another (rules or tuples changed between the two reads). */
  explanationDisagrees: z.boolean(),
});

export const permissionExpandInput = z.object({
  projectId: uuidSchema,
  namespace: part('namespace'),
  object: part('object'),
  relation: part('relation'),
  maxDepth: maxDepth.optional(),
});

export const expandTreeSchema: z.ZodType<ExpandedPermissionTree> = conformsTo<ExpandedPermissionTree>()(
  z.lazy(() =>
    z.object({
      type: z.enum(['union', 'exclusion', 'intersection', 'leaf', 'tuple_to_subject_set', 'computed_subject_set', 'not', 'unspecified']),
      tuple: relationshipSchema.optional(),
      children: z.array(expandTreeSchema).optional(),
    }),
  ),
);

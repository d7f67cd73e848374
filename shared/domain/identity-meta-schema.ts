import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { compileIdentitySchema } from './identity-schema-compiler';
import { re2Pattern, re2RegExp, schemaLimitProblems } from './identity-schema-limits';

/*
 * Ory's identity meta-schema: a JSON Schema (draft-07) whose `traits` are an object schema, with Ory's
 * `ory.sh/kratos` extension on any trait — which trait signs in (credentials.password / code / webauthn
 * identifier, passkey display name, totp account name), and which is verified or used for recovery, and how.
 */

const via = { enum: ['email', 'sms'] };
const flag = { type: 'boolean' };
const only = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length ? { required } : {}),
});

/** The value of the `ory.sh/kratos` keyword on a trait. */
export const IDENTITY_EXTENSION_SCHEMA = only({
  credentials: only({
    password: only({ identifier: flag }),
    code: only({ identifier: flag, via }),
    webauthn: only({ identifier: flag }),
    passkey: only({ display_name: flag }),
    totp: only({ account_name: flag }),
  }),
  verification: only({ via }, ['via']),
  recovery: only({ via }, ['via']),
  organizations: only({ matcher: { enum: ['email_domain'] } }),
});

export const IDENTITY_META_SCHEMA_ID = 'https://schemas.ory.sh/kratos/identity.meta.schema.json';

/** GET /.well-known/identity-meta-schema: what an identity schema must be. */
export const IDENTITY_META_SCHEMA = {
  $id: IDENTITY_META_SCHEMA_ID,
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Ory Identity Schema',
  allOf: [
    { $ref: 'http://json-schema.org/draft-07/schema#' },
    {
      type: 'object',
      required: ['properties'],
      properties: {
        properties: {
          type: 'object',
          required: ['traits'],
          properties: {
            traits: {
              allOf: [{ $ref: '#/definitions/trait' }],
              type: 'object',
              required: ['type', 'properties'],
              properties: { type: { const: 'object' } },
            },
          },
        },
      },
    },
  ],
  definitions: {
    extension: IDENTITY_EXTENSION_SCHEMA,
    trait: {
      type: 'object',
      properties: {
        'ory.sh/kratos': { $ref: '#/definitions/extension' },
        properties: { type: 'object', additionalProperties: { $ref: '#/definitions/trait' } },
        items: { anyOf: [{ $ref: '#/definitions/trait' }, { type: 'array', items: { $ref: '#/definitions/trait' } }] },
      },
    },
  },
} as const;

/** One way a schema falls short: where (a JSON pointer into the schema, '' for the whole) and what to fix. */
export interface SchemaProblem {
  pointer: string;
  message: string;
}

const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, code: { regExp: re2RegExp } });
addFormats.default(ajv);
// A pattern is a regular expression of RE2, the engine identities are validated with, not of JavaScript.
ajv.addFormat('regex', (pattern: string) => {
  try {
    re2Pattern(pattern);
    return true;
  } catch {
    return false;
  }
});
const metaValidate = ajv.compile(IDENTITY_META_SCHEMA);

function problemOf(e: ErrorObject): SchemaProblem {
  const params = e.params as Record<string, unknown>;
  if (e.keyword === 'required') {
    return { pointer: e.instancePath, message: `must have the property "${String(params.missingProperty)}"` };
  }
  if (e.keyword === 'additionalProperties') {
    return { pointer: `${e.instancePath}/${String(params.additionalProperty)}`, message: 'is not a setting Ory knows here; remove it' };
  }
  if (e.keyword === 'enum') {
    return { pointer: e.instancePath, message: `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
  }
  if (e.keyword === 'const') return { pointer: e.instancePath, message: `must be ${JSON.stringify(params.allowedValue)}` };
  return { pointer: e.instancePath, message: e.message ?? 'is not valid' };
}

/** The meta-schema's failures, the most precise one per place (anyOf/allOf summaries dropped when a detail exists). */
function metaProblems(errors: ErrorObject[]): SchemaProblem[] {
  const detailed = errors.filter((e) => !['anyOf', 'allOf', 'oneOf', 'if'].includes(e.keyword));
  const chosen = detailed.length > 0 ? detailed : errors;
  const seen = new Set<string>();
  const out: SchemaProblem[] = [];
  for (const p of chosen.map(problemOf)) {
    const key = `${p.pointer}\u0000${p.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}

/**
 * Checks an identity schema's limits (size, depth, RE2 patterns, `$ref` cycles and expansion: what would
 * stall the identity service), then the identity meta-schema (draft-07 and Ory's extension), then that it
 * compiles (its `$ref`s resolve). Empty when it is a valid identity schema.
 */
export function identitySchemaProblems(schema: unknown): SchemaProblem[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return [{ pointer: '', message: 'an identity schema must be a JSON object' }];
  }
  const limits = schemaLimitProblems(schema);
  if (limits.length > 0) return limits;
  if (!metaValidate(schema)) return metaProblems(metaValidate.errors ?? []);
  const compiled = compileIdentitySchema(schema);
  return compiled.ok ? [] : compiled.problems;
}

/** RFC 6901 pointer ⇄ its segments. */
export const pointerSegments = (pointer: string): string[] =>
  pointer === '' ? [] : pointer.slice(1).split('/').map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));

/**
 * The validation message of the console's API: one line per problem, `#<pointer>: <what to fix>`, the pointer
 * in its URI-fragment form (each segment percent-encoded), so it never contains `: `.
 */
export function problemsMessage(problems: SchemaProblem[]): string {
  return problems
    .map((p) => `#${pointerSegments(p.pointer).map((s) => `/${encodeURIComponent(s)}`).join('')}: ${p.message}`)
    .join('\n');
}

/** Reads `problemsMessage` back; a line in another form is a problem of the whole schema. */
export function parseProblemsMessage(message: string): SchemaProblem[] {
  return message
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const match = /^#((?:\/[^/\s:]*)*): (.*)$/.exec(line);
      if (!match) return { pointer: '', message: line };
      const segments = match[1]!.split('/').slice(1).map((s) => decodeURIComponent(s));
      return {
        pointer: segments.map((s) => `/${s.replaceAll('~', '~0').replaceAll('/', '~1')}`).join(''),
        message: match[2]!,
      };
    });
}

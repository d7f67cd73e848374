import { createHash } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { LRUCache } from 'lru-cache';
import { re2RegExp, schemaLimitProblems, type LimitProblem } from './identity-schema-limits';

/*
 * Identity schemas compiled with ajv, the way the identity service validates traits, for the server side
 * only (ajv compiles to code; the console's pages do not run it): each distinct schema (by the hash of its
 * content) is compiled once, after the limits of identity-schema-limits.ts, with RE2 for its patterns, into
 * its own ajv instance so that dropping it from the bounded cache frees it, and one schema's `$id` never
 * collides with another's.
 */

/** How many compiled schemas a process keeps. */
export const MAX_COMPILED_SCHEMAS = 64;

export type CompiledSchema = { ok: true; validate: ValidateFunction } | { ok: false; problems: LimitProblem[] };

const compiled = new LRUCache<string, CompiledSchema>({ max: MAX_COMPILED_SCHEMAS });

/** The schemas compiled now (the cache's size), for the tests that hold it to its bound. */
export const compiledSchemaCount = (): number => compiled.size;

export const schemaContentHash = (schema: unknown): string => createHash('sha256').update(JSON.stringify(schema) ?? '').digest('hex');

/** Formats the identity service checks; `tel` is a phone number as people write it. */
const TEL = /^\+?[0-9 ().-]{3,32}$/;

function newAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, logger: false, code: { regExp: re2RegExp } });
  addFormats.default(ajv);
  ajv.addFormat('tel', TEL);
  return ajv;
}

/**
 * An identity schema compiled to validate identities (`{ traits }`), or the problems that keep it from
 * compiling: its limits first, then what ajv says (an unresolved `$ref`, …).
 */
export function compileIdentitySchema(schema: unknown): CompiledSchema {
  const key = schemaContentHash(schema);
  const known = compiled.get(key);
  if (known) return known;
  let result: CompiledSchema;
  const problems = schemaLimitProblems(schema);
  if (problems.length > 0) result = { ok: false, problems };
  else {
    try {
      // Validated as draft-07 whatever draft the schema names, as its traits always were.
      const { $schema: _draft, ...rest } = schema as Record<string, unknown>;
      result = { ok: true, validate: newAjv().compile(rest) };
    } catch (err) {
      result = { ok: false, problems: [{ pointer: '', message: `does not compile: ${(err as Error).message}` }] };
    }
  }
  compiled.set(key, result);
  return result;
}

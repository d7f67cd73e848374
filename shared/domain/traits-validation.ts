import type { ErrorObject } from 'ajv';
import { compileIdentitySchema } from './identity-schema-compiler';
import { problemsMessage } from './identity-meta-schema';
import { traitsSchema } from './schema-form';

const MESSAGES: Record<string, (e: ErrorObject) => string> = {
  required: () => 'Required',
  format: (e) => `Must be a valid ${String(e.params.format).replace('date-time', 'date and time')}`,
  enum: () => 'Choose one of the options',
  minLength: (e) => `Must be at least ${String(e.params.limit)} characters`,
  maxLength: (e) => `Must be at most ${String(e.params.limit)} characters`,
  minimum: (e) => `Must be at least ${String(e.params.limit)}`,
  maximum: (e) => `Must be at most ${String(e.params.limit)}`,
  type: (e) => `Must be ${String(e.params.type) === 'integer' ? 'a whole number' : `a ${String(e.params.type)}`}`,
  pattern: () => 'Does not have the expected form',
  additionalProperties: () => 'Is not a trait of this schema',
};

/** A schema that cannot be compiled (too large or deep, a pattern RE2 refuses, …), with what to fix. */
export class UncompilableSchemaError extends Error {}

/**
 * Validates traits against an identity schema with ajv, as the identity provider does (the identity
 * `{ traits }` against the whole schema, so its definitions resolve; patterns on RE2; each distinct schema
 * compiled once, in a bounded cache): the first failure of each field, keyed by its dotted path ('' for the
 * whole object). Empty when they are valid. Throws UncompilableSchemaError for a schema that cannot compile.
 */
export function validateTraits(identitySchema: unknown, traits: Record<string, unknown>): Record<string, string> {
  if (!traitsSchema(identitySchema)) return {};
  const compiled = compileIdentitySchema(identitySchema);
  if (!compiled.ok) throw new UncompilableSchemaError(`The identity schema cannot be used:\n${problemsMessage(compiled.problems)}`);
  const validate = compiled.validate;
  if (validate({ traits })) return {};
  const errors: Record<string, string> = {};
  for (const e of validate.errors ?? []) {
    const base = e.instancePath.split('/').filter(Boolean).slice(1).join('.');
    const extra = e.keyword === 'required' ? String(e.params.missingProperty) : e.keyword === 'additionalProperties' ? String(e.params.additionalProperty) : '';
    const path = [base, extra].filter(Boolean).join('.');
    errors[path] ??= (MESSAGES[e.keyword] ?? ((x: ErrorObject) => x.message ?? 'Is not valid'))(e);
  }
  return errors;
}


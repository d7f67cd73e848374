import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { traitsSchema } from './schema-form';

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
ajv.addFormat('tel', true);
const compiled = new WeakMap<object, ReturnType<typeof ajv.compile>>();

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

/**
 * Validates traits against an identity schema's traits with ajv, as the identity provider does: the first
 * failure of each field, keyed by its dotted path ('' for the whole object). Empty when they are valid.
 */
export function validateTraits(identitySchema: unknown, traits: Record<string, unknown>): Record<string, string> {
  const schema = traitsSchema(identitySchema);
  if (!schema) return {};
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(traits)) return {};
  const errors: Record<string, string> = {};
  for (const e of validate.errors ?? []) {
    const base = e.instancePath.split('/').filter(Boolean).join('.');
    const extra = e.keyword === 'required' ? String(e.params.missingProperty) : e.keyword === 'additionalProperties' ? String(e.params.additionalProperty) : '';
    const path = [base, extra].filter(Boolean).join('.');
    errors[path] ??= (MESSAGES[e.keyword] ?? ((x: ErrorObject) => x.message ?? 'Is not valid'))(e);
  }
  return errors;
}


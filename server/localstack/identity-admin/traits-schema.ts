import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { IDENTITY_SCHEMA } from '../identity/schemas';
import { badRequest } from './errors';

/** The identity schemas a tenant has: the local stack serves one, `default` (also under its base64url id). */
const SCHEMA_IDS = new Set(['default', Buffer.from('default').toString('base64url')]);

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats.default(ajv);
const validate = ajv.compile(IDENTITY_SCHEMA.properties.traits);

/** `traits.email: must match format "email"` for each failure, the field named as a dotted path. */
function describe(errors: ErrorObject[]): string {
  return errors
    .map((e) => {
      const missing = e.keyword === 'required' ? `.${String(e.params.missingProperty)}` : '';
      const extra = e.keyword === 'additionalProperties' ? `.${String(e.params.additionalProperty)}` : '';
      const path = `traits${e.instancePath.replaceAll('/', '.')}${missing}${extra}`;
      if (e.keyword === 'required') return `${path}: is required`;
      if (e.keyword === 'additionalProperties') return `${path}: is not a trait of the identity schema`;
      return `${path}: ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

/** The schema id to store; 400 when the tenant has no schema by that id. */
export function checkSchemaId(schemaId: string): string {
  if (!SCHEMA_IDS.has(schemaId)) throw badRequest(`schema_id: the identity schema "${schemaId.slice(0, 80)}" does not exist; use "default".`);
  return 'default';
}

/** Validates traits against the identity schema; answers the identifier (the email, lower-cased and trimmed). */
export function checkTraits(traits: Record<string, unknown>): string {
  if (!validate(traits)) throw badRequest(`The traits do not match the identity schema: ${describe(validate.errors ?? [])}`);
  const email = String(traits.email).trim().toLowerCase();
  if (email.length > 320) throw badRequest('traits.email: must be at most 320 characters');
  return email;
}

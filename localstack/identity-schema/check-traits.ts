import { traitIdentifiers, traitMarks, type TraitIdentifiers } from '../../shared/domain/identity-schema-extension';
import { valueAt } from '../../shared/domain/schema-form';
import type { Queryable } from '../db/types';
import { schemaFor, tenantSchemas, traitsProblem } from './tenant-schemas';
import { badRequest } from '../kernel/errors';

export interface CheckedTraits {
  /** The schema id to store. */
  schemaId: string;
  /** The identifier and addresses the schema's `ory.sh/kratos` extension takes from the traits. */
  identifiers: TraitIdentifiers;
}

const MAX_IDENTIFIER = 320;

/**
 * Validates traits against the tenant's identity schema `schemaId` (400 when the tenant has none by that
 * id, or naming each field that does not match); answers what the schema makes of them.
 */
export async function checkTraits(q: Queryable, nid: string, schemaId: string, traits: Record<string, unknown>): Promise<CheckedTraits> {
  const schemas = await tenantSchemas(q, nid);
  const schema = schemaFor(schemas, schemaId);
  if (!schema) {
    const known = schemas.list.map((s) => `"${s.id}"`).join(', ');
    throw badRequest(`schema_id: the identity schema "${schemaId.slice(0, 80)}" does not exist; use one of ${known}.`);
  }
  const problem = traitsProblem(schema.schema, traits);
  if (problem) throw badRequest(`The traits do not match the identity schema: ${problem}`);
  const marks = traitMarks(schema.schema);
  for (const path of new Set([...marks.passwordIdentifiers, ...[...marks.verification, ...marks.recovery, ...marks.codeIdentifiers].map((m) => m.path)])) {
    const value = valueAt(traits, path);
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && v.trim().length > MAX_IDENTIFIER)) {
      throw badRequest(`traits.${path}: must be at most ${MAX_IDENTIFIER} characters (it signs in or receives messages)`);
    }
  }
  const identifiers = traitIdentifiers(schema.schema, traits);
  // The stored id: `default` stays `default` (it follows the project's default schema), any other the schema's own.
  return { schemaId: schemaId === 'default' ? 'default' : schema.id, identifiers };
}

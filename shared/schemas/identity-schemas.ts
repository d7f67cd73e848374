import type {
  GetManagedIdentitySchemaLocation,
  IdentitySchemaPreset,
  ManagedIdentitySchema,
  ManagedIdentitySchemaValidationResult,
} from '@ory/client';
import { z } from 'zod';
import { uuidSchema } from './common';
import { conformsTo } from './wire';

/*
 * Identity schemas of a project (spec §7: /identity-schemas, /presets/identity/schemas): Ory's managed
 * schemas and presets on the wire, and the console's procedures over them.
 */

const projectId = uuidSchema;
const jsonObject = z.record(z.string(), z.unknown());

// ---- wire (Ory's orphan schemas) ----

export const managedIdentitySchemaSchema = conformsTo<ManagedIdentitySchema>()(
  z.looseObject({
    id: z.string(),
    name: z.string(),
    blob_name: z.string(),
    blob_url: z.string(),
    content_hash: z.string().optional(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);
export const managedIdentitySchemasSchema = z.array(managedIdentitySchemaSchema);
export const identitySchemaPresetSchema = conformsTo<IdentitySchemaPreset>()(z.looseObject({ url: z.string(), schema: jsonObject }));
export const identitySchemaPresetsSchema = z.array(identitySchemaPresetSchema);
export const managedSchemaLocationSchema = conformsTo<GetManagedIdentitySchemaLocation>()(z.looseObject({ location: z.string().optional() }));
export const schemaValidationResultSchema = conformsTo<ManagedIdentitySchemaValidationResult>()(
  z.looseObject({ valid: z.boolean().optional(), message: z.string().optional() }),
);

// ---- procedures ----

/** The largest schema the editor sends (the control plane stores at most 256 KiB). */
export const MAX_SCHEMA_TEXT = 256 * 1024;

export const schemaNameSchema = z
  .string()
  .trim()
  .min(1, { error: 'Give the schema a name' })
  .max(128, { error: 'Use at most 128 characters for the name' });
/** The schema as the editor holds it: JSON text, parsed and checked by the procedure. */
export const schemaTextSchema = z
  .string()
  .min(1, { error: 'Write the identity schema as JSON' })
  .max(MAX_SCHEMA_TEXT, { error: 'An identity schema is at most 256 KiB' });
/** A schema id of the project's config: a managed schema's id, `preset://…`, or `default`. */
export const schemaIdSchema = z.string().min(1, { error: 'Choose an identity schema' }).max(256, { error: 'Not an identity schema id' });

export const schemasProjectInput = z.object({ projectId });
export const schemaGetInput = z.object({ projectId, schemaId: uuidSchema });
export const schemaCreateInput = z.object({ projectId, name: schemaNameSchema, schema: schemaTextSchema });
export const schemaUpdateInput = z.object({ projectId, schemaId: uuidSchema, name: schemaNameSchema, schema: schemaTextSchema });
export const schemaValidateInput = z.object({ projectId, schema: z.string().max(MAX_SCHEMA_TEXT, { error: 'An identity schema is at most 256 KiB' }) });
export const schemaSetDefaultInput = z.object({ projectId, schemaId: schemaIdSchema });

/** One problem of a schema, at its place in the JSON text (1-based line and column). */
export const schemaProblemSchema = z.object({
  message: z.string(),
  /** RFC 6901 pointer into the schema ('' for the whole); null for a syntax error. */
  pointer: z.string().nullable(),
  line: z.number().int(),
  column: z.number().int(),
});
export type SchemaProblem = z.infer<typeof schemaProblemSchema>;
export const schemaValidateOutput = z.object({ valid: z.boolean(), problems: z.array(schemaProblemSchema) });

export const presetOutput = z.object({ id: z.string(), title: z.string(), schema: jsonObject });
export const presetsOutput = z.array(presetOutput);

export const managedSchemaOutput = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  contentHash: z.string().nullable(),
});
/** A managed schema with its content: parsed, and as its author wrote it (key order and layout kept). */
export const managedSchemaWithContentOutput = managedSchemaOutput.extend({ schema: jsonObject, text: z.string() });

/** What the project's identity service has: its schemas (from its config), which is default, and the managed ones. */
export const schemasListOutput = z.object({
  /** The config's default schema id. */
  defaultId: z.string(),
  /** The schemas the project's config declares (or the built-in `default`), each with where it comes from. */
  active: z.array(z.object({ id: z.string(), schema: jsonObject, source: z.enum(['managed', 'preset', 'built-in', 'config']) })),
  managed: z.array(managedSchemaWithContentOutput),
  presets: presetsOutput,
});
export type SchemasList = z.infer<typeof schemasListOutput>;

export const setDefaultOutput = z.object({ defaultId: z.string(), revisionId: z.string() });

/** Ory's identity meta-schema, a JSON schema. */
export const metaSchemaOutput = z.record(z.string(), z.unknown());

import { z } from 'zod';
import { BRANDING_COLOR_KEYS } from '../domain/branding';
import { BUNDLE_FORMAT, BUNDLE_LIMITS, BUNDLE_VERSION, countOf, type BundlePart } from '../domain/project-bundle';
import { brandingImageSchema } from './branding';
import { uuidSchema } from './common';
import { identityStateSchema } from './identities';
import { projectNameSchema } from './project';

/* A whole project as one file: what it holds is described in shared/domain/project-bundle.ts. */

const atMost = (part: BundlePart) => ({ error: `A project file holds at most ${countOf(part, BUNDLE_LIMITS[part])}.` });
const jsonObject = (what: string) => z.record(z.string().max(256), z.unknown(), { error: `${what} must be a JSON object` });
const short = (what: string, max = 256) => z.string({ error: `${what} must be text` }).min(1, { error: `${what} must not be empty` }).max(max, { error: `${what} has at most ${max} characters` });

export const bundleSchemaSchema = z.object({
  /** The schema's id in the exporting project, as its configuration and identities name it. */
  id: short('An identity schema’s id'),
  name: short('An identity schema’s name'),
  /** The schema as its author wrote it (JSON text). */
  text: z.string().min(2).max(256 * 1024, { error: 'An identity schema has at most 256 KiB' }),
});

const hexColor = z.string().regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, { error: 'A theme colour is a hex colour such as #3b31c7' });

export const bundleThemeSchema = z.object({
  name: short('A theme’s name', 64),
  logo_url: brandingImageSchema.optional(),
  logo_type: z.string().max(64).optional(),
  favicon_url: brandingImageSchema.optional(),
  favicon_type: z.string().max(64).optional(),
  colors: z.partialRecord(z.enum(BRANDING_COLOR_KEYS, { error: 'Unknown theme colour' }), hexColor),
  /** Whether the hosted pages use it. */
  active: z.boolean(),
});

/** A client as Hydra's admin API answers it, without its secret and the fields Hydra sets itself. */
export const bundleClientSchema = z
  .looseObject({ client_id: short('An OAuth2 client’s client_id', 255) })
  .refine((c) => !('client_secret' in c), { error: 'An OAuth2 client in a project file carries no client_secret: remove it' });

export const bundleTupleSchema = z
  .object({
    namespace: short('A relationship’s namespace'),
    object: short('A relationship’s object'),
    relation: short('A relationship’s relation'),
    subject_id: short('A relationship’s subject_id').optional(),
    subject_set: z.object({ namespace: short('A subject set’s namespace'), object: short('A subject set’s object'), relation: z.string().max(256) }).optional(),
  })
  .refine((t) => (t.subject_id === undefined) !== (t.subject_set === undefined), { error: 'A relationship has either a subject_id or a subject_set' });

export const bundleIdentitySchema = z.object({
  schema_id: short('An identity’s schema_id'),
  traits: jsonObject('An identity’s traits'),
  state: identityStateSchema.optional(),
  metadata_public: jsonObject('metadata_public').nullable().optional(),
  metadata_admin: jsonObject('metadata_admin').nullable().optional(),
  /** The password's hash, in a format the identity import takes as `hashed_password`. */
  password_hash: z.string().min(1).max(1024).optional(),
});

export const projectBundleSchema = z.object({
  format: z.literal(BUNDLE_FORMAT, { error: `This is not a project file exported by the console (format ${BUNDLE_FORMAT}).` }),
  version: z.literal(BUNDLE_VERSION, { error: 'This project file is of a version the console cannot import; export it again.' }),
  exported_at: z.string().max(64).optional(),
  name: projectNameSchema,
  services: z.record(z.string(), z.unknown(), { error: 'services must be an object of the project’s services' }),
  /** The JSON pointers (into `services`) of the secrets redacted on export: an import gives each one again. */
  secrets: z.array(z.string().max(500)).max(100).optional(),
  identity_schemas: z.array(bundleSchemaSchema).max(BUNDLE_LIMITS.identity_schemas, atMost('identity_schemas')),
  themes: z.array(bundleThemeSchema).max(BUNDLE_LIMITS.themes, atMost('themes')),
  oauth2_clients: z.array(bundleClientSchema).max(BUNDLE_LIMITS.oauth2_clients, atMost('oauth2_clients')),
  relation_tuples: z.array(bundleTupleSchema).max(BUNDLE_LIMITS.relation_tuples, atMost('relation_tuples')),
  /** Absent when the export left identities out. */
  identities: z.array(bundleIdentitySchema).max(BUNDLE_LIMITS.identities, atMost('identities')).optional(),
});
export type ProjectBundle = z.infer<typeof projectBundleSchema>;

export const bundleExportInput = z.object({ projectId: uuidSchema, includeIdentities: z.boolean().optional() });
export const bundleExportOutput = projectBundleSchema.extend({ secrets: z.array(z.string()) });

export const bundleImportInput = z.object({
  projectId: uuidSchema,
  /** The revision the user saw as current; a change made since answers CONFLICT. */
  currentRevisionId: uuidSchema,
  file: projectBundleSchema,
  /** The secret for each redacted place, by its JSON pointer into `services`. */
  secrets: z.record(z.string().max(500), z.string().min(1, { error: 'Give each secret, or leave the file’s place out' }).max(4096)).optional(),
});

export const bundleImportOutput = z.object({
  revisionId: z.string(),
  /** How many of each part were imported. */
  imported: z.object({
    identity_schemas: z.number(),
    themes: z.number(),
    oauth2_clients: z.number(),
    relation_tuples: z.number(),
    identities: z.number(),
  }),
  /** Each imported client's new secret (public clients have none): shown once, as on creating a client. */
  clientSecrets: z.array(z.object({ clientId: z.string(), clientSecret: z.string().nullable() })),
  /** What the import could not carry over, in words (identities without their password, …). */
  notes: z.array(z.string()),
});
export type BundleImportResult = z.infer<typeof bundleImportOutput>;

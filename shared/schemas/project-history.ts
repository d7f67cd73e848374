import { z } from 'zod';
import { EXPORT_FORMAT } from '../domain/config-export';
import { uuidSchema } from './common';
import { projectNameSchema } from './project';

/*
 * The history of a project's configuration: every revision with who wrote it and when, what it changed,
 * and restoring one as a new revision. The local stack serves it on the control plane (Ory Network keeps
 * revisions but publishes no call to list them); the BFF adds the readable changes.
 */

/** One revision as the history lists it. */
export const projectRevisionSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  created_at: z.string(),
  /** The identity that wrote it (a member, or the owner of the API key used); null for revisions older than authors. */
  created_by: z.string().nullable(),
  /** The author's email address, while their account exists. */
  author_email: z.string().nullable(),
  /** Whether it is the project's current configuration. */
  current: z.boolean(),
});
export type ProjectRevisionSummary = z.infer<typeof projectRevisionSummarySchema>;

export const projectRevisionsPageSchema = z.object({
  revisions: z.array(projectRevisionSummarySchema),
  /** Empty on the last page. */
  next_page_token: z.string(),
});

/** A revision's configuration (secrets redacted as a project read does) and the one before it, for a diff. */
export const projectRevisionDetailSchema = z.object({
  revision: projectRevisionSummarySchema,
  document: z.record(z.string(), z.unknown()),
  previous: z.object({ id: z.string(), document: z.record(z.string(), z.unknown()) }).nullable(),
});

export const revisionsQuery = z.object({
  page_size: z.coerce.number({ error: 'page_size is a number from 1 to 100' }).int().min(1).max(100).optional(),
  page_token: z.string().max(64).optional(),
});

/** Restore: the revision the caller saw as current (the revision-conflict rule: anything else answers 409). */
export const restoreRevisionBody = z.object({ current_revision_id: uuidSchema });

// ---- procedures ----

export const historyListInput = z.object({ projectId: uuidSchema, pageToken: z.string().max(64).optional() });
export const historyRevisionInput = z.object({ projectId: uuidSchema, revisionId: uuidSchema });
export const historyRestoreInput = z.object({
  projectId: uuidSchema,
  revisionId: uuidSchema,
  /** The revision the user saw as current when they chose to restore; a change made since answers CONFLICT. */
  currentRevisionId: uuidSchema,
});

/** One change between two revisions, at a JSON pointer: added, removed or replaced, with the values before and after. */
export const configChangeSchema = z.object({
  op: z.enum(['add', 'remove', 'replace']),
  path: z.string(),
  before: z.unknown().optional(),
  after: z.unknown().optional(),
});
export type ConfigChange = z.infer<typeof configChangeSchema>;

export const historyListOutput = z.object({ revisions: z.array(projectRevisionSummarySchema), nextPageToken: z.string().nullable() });
export const historyRevisionOutput = z.object({
  revision: projectRevisionSummarySchema,
  /** What this revision changed from the one before it (empty for the first). */
  changes: z.array(configChangeSchema),
  /** Whether the changes were cut to the first 500. */
  truncated: z.boolean(),
});
export const historyRestoreOutput = z.object({ revisionId: z.string() });

// ---- export and import ----

/** A project's configuration as a file: its name and services, every secret redacted (`secrets` names where). */
export const projectConfigFileSchema = z.object({
  format: z.literal(EXPORT_FORMAT, { error: `This is not a project configuration exported by the console (format ${EXPORT_FORMAT}).` }),
  version: z.literal(1, { error: 'This file is of a version the console cannot import; export it again.' }),
  exported_at: z.string().max(64).optional(),
  name: projectNameSchema,
  services: z.record(z.string(), z.unknown(), { error: 'services must be an object of the project’s services' }),
  /** The JSON pointers (into `services`) of the secrets redacted on export: an import gives each one again. */
  secrets: z.array(z.string().max(500)).max(100).optional(),
});
export type ProjectConfigFile = z.infer<typeof projectConfigFileSchema>;

export const historyExportInput = z.object({ projectId: uuidSchema });
export const historyExportOutput = projectConfigFileSchema.extend({ secrets: z.array(z.string()) });

export const historyImportInput = z.object({
  projectId: uuidSchema,
  /** The revision the user saw as current; a change made since answers CONFLICT. */
  currentRevisionId: uuidSchema,
  file: projectConfigFileSchema,
  /** The secret for each redacted place, by its JSON pointer into `services`. */
  secrets: z.record(z.string().max(500), z.string().min(1, { error: 'Give each secret, or leave the file’s place out' }).max(4096)).optional(),
});
export const historyImportOutput = z.object({ revisionId: z.string() });

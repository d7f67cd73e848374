import { foreignKey, index, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../kernel/tables';

const tstz = { withTimezone: true, mode: 'date' } as const;

/**
 * A project's managed identity schemas (Ory's managedIdentitySchema): the JSON schema itself, named by the
 * user, unique per project by name. A project's configuration (`services.identity.config.identity.schemas`)
 * refers to one by its id.
 */
export const managedIdentitySchemas = pgTable(
  'managed_identity_schemas',
  {
    id: uuid().primaryKey(),
    project_id: uuid().notNull(),
    name: text().notNull(),
    blob_name: text().notNull(),
    content: jsonb().$type<Record<string, unknown>>().notNull(),
    /** The schema's JSON text as its author sent it (jsonb keeps neither key order nor layout); null on rows saved before it was kept. */
    content_text: text(),
    content_hash: text().notNull(),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    foreignKey({ name: 'managed_identity_schemas_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete(
      'cascade',
    ),
    unique('managed_identity_schemas_project_id_name_key').on(t.project_id, t.name),
    index('managed_identity_schemas_project_created_idx').on(t.project_id, t.created_at, t.id),
  ],
);

export type ManagedIdentitySchemaRow = typeof managedIdentitySchemas.$inferSelect;

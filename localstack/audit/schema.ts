import { foreignKey, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { workspaces } from '../project/schema';

const tstz = { withTimezone: true, mode: 'date' } as const;

/**
 * The audit log: one row per write a member (or an API key) made on the control plane or a project's admin
 * API: who (the identity, or the key and its owner), what (`action`, and the names of the fields or JSON
 * patch paths it sent, never their values), on what (`target_type`, `target_id`, the project), when, and
 * how it ended (`success` or `failure` with the HTTP status). Read per workspace; deleting the workspace
 * deletes its log. The project is kept as an id: the log outlives a deleted project.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid().primaryKey(),
    workspace_id: uuid(),
    project_id: uuid(),
    /** The identity that acted: the signed-in member, or the owner of the workspace key used; null for a project key. */
    actor_id: uuid(),
    actor_kind: text().$type<'user' | 'workspace_api_key' | 'project_api_key'>().notNull(),
    /** The API key used, when one was. */
    actor_key_id: text(),
    action: text().notNull(),
    target_type: text().notNull(),
    target_id: text(),
    outcome: text().$type<'success' | 'failure'>().notNull(),
    status: integer().notNull(),
    /** Which fields (or JSON patch paths) the write sent: names only, never values. */
    fields: jsonb().$type<string[]>().notNull(),
    /**
     * The written object as its members read it before and after the write (null for a create's before, a
     * delete's after, a failed write, and writes whose object is not kept), with every secret redacted.
     */
    before: jsonb(),
    after: jsonb(),
    request_id: text(),
    at: timestamp(tstz).notNull(),
  },
  (t) => [
    foreignKey({ name: 'audit_events_workspace_id_fkey', columns: [t.workspace_id], foreignColumns: [workspaces.id] }).onDelete('cascade'),
    index('audit_events_workspace_idx').on(t.workspace_id, t.at, t.id),
  ],
);

export type AuditEventRow = typeof auditEvents.$inferSelect;

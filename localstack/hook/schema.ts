import { boolean, foreignKey, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../project/schema';

const tstz = { withTimezone: true, mode: 'date' } as const;

/**
 * Each call of a project's identity web hook (Kratos' `web_hook` in `selfservice.flows.<flow>.before|after`):
 * which flow and moment called it, where (the URL without credentials or query), the outcome, the status
 * code (null when nothing answered), how long it took and whether its answer stopped the flow.
 * Deleting the project deletes its log.
 */
export const identityHookCalls = pgTable(
  'identity_hook_calls',
  {
    id: uuid().primaryKey(),
    project_id: uuid().notNull(),
    flow: text().$type<'login' | 'registration' | 'settings' | 'recovery' | 'verification'>().notNull(),
    phase: text().$type<'before' | 'after'>().notNull(),
    /** The credential method of an `after` hook (`password`, `code`, …), or null for a flow-wide hook. */
    auth_method: text(),
    /** Where the hook sits in the config (`selfservice.flows.registration.after.password.hooks.0`). */
    hook_path: text().notNull(),
    url: text().notNull(),
    http_method: text().notNull(),
    status: text().$type<'success' | 'failed'>().notNull(),
    response_code: integer(),
    latency_ms: integer().notNull(),
    interrupted: boolean().notNull(),
    error: text(),
    at: timestamp(tstz).notNull(),
  },
  (t) => [
    foreignKey({ name: 'identity_hook_calls_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete('cascade'),
    index('identity_hook_calls_project_idx').on(t.project_id, t.at, t.id),
  ],
);

export type IdentityHookCallRow = typeof identityHookCalls.$inferSelect;

import { sql } from 'drizzle-orm';
import { check, foreignKey, index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { identities, projects, workspaces } from '../kernel/tables';

export { workspaces, workspaceMembers, projects, projectRevisions, projectMembers, projectApiKeys, workspaceApiKeys, idempotencyKeys } from '../kernel/tables';
export type { WorkspaceRow, WorkspaceMemberRow, ProjectRow, ProjectRevisionRow, ProjectMemberRow, ProjectApiKeyRow, WorkspaceApiKeyRow } from '../kernel/tables';

/*
 * Control-plane tables of the local stack (they reference `identities`). Timestamps are written by the
 * application with millisecond precision so that (created_at, id) page tokens round-trip exactly.
 * Property names equal column names; constraint names equal those PostgreSQL gave the original tables.
 */

const tstz = { withTimezone: true, mode: 'date' } as const;

export const consoleActiveProject = pgTable(
  'console_active_project',
  {
    identity_id: uuid().primaryKey(),
    project_id: uuid().notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    foreignKey({ name: 'console_active_project_identity_id_fkey', columns: [t.identity_id], foreignColumns: [identities.id] }).onDelete(
      'cascade',
    ),
    foreignKey({ name: 'console_active_project_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete(
      'cascade',
    ),
  ],
);

/*
 * Invites to a project or a workspace. The invite link carries a secret token, stored only as its SHA-256;
 * a pending invite past `expires_at` reads as expired. Emails are stored lower-cased.
 */
export const memberInvites = pgTable(
  'member_invites',
  {
    id: uuid().primaryKey(),
    project_id: uuid(),
    workspace_id: uuid(),
    invitee_email: text().notNull(),
    invitee_id: uuid(),
    owner_id: uuid().notNull(),
    role: text().notNull(),
    status: text().notNull(),
    token_hash: text().notNull(),
    expires_at: timestamp(tstz).notNull(),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    foreignKey({ name: 'member_invites_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete('cascade'),
    foreignKey({ name: 'member_invites_workspace_id_fkey', columns: [t.workspace_id], foreignColumns: [workspaces.id] }).onDelete(
      'cascade',
    ),
    foreignKey({ name: 'member_invites_owner_id_fkey', columns: [t.owner_id], foreignColumns: [identities.id] }).onDelete('cascade'),
    foreignKey({ name: 'member_invites_invitee_id_fkey', columns: [t.invitee_id], foreignColumns: [identities.id] }).onDelete(
      'set null',
    ),
    check('member_invites_role_check', sql`${t.role} IN ('owner', 'developer')`),
    check(
      'member_invites_status_check',
      sql`${t.status} IN ('pending', 'accepted', 'declined', 'expired', 'cancelled', 'removed')`,
    ),
    check('member_invites_one_scope_check', sql`(${t.project_id} IS NULL) <> (${t.workspace_id} IS NULL)`),
    unique('member_invites_token_hash_key').on(t.token_hash),
    index('member_invites_project_idx').on(t.project_id, t.created_at),
    index('member_invites_workspace_idx').on(t.workspace_id, t.created_at),
    index('member_invites_invitee_email_idx').on(t.invitee_email),
  ],
);

export type MemberInviteRow = typeof memberInvites.$inferSelect;
export type ActiveProjectRow = typeof consoleActiveProject.$inferSelect;

import { sql } from 'drizzle-orm';
import { boolean, check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

/*
 * The tables the kernel resolves tenants, callers and roles from: identities and their sessions, workspaces,
 * projects and their members and API keys. Their domains (identity/schema.ts, project/schema.ts) re-export
 * them, so drizzle-kit and every other caller find them there. Property names equal column names; constraint
 * names equal those PostgreSQL gave the original tables.
 */

const tstz = { withTimezone: true, mode: 'date' } as const;

/** An identity's traits (the identity schema decides which; the console's own identities carry an email). */
export interface Traits {
  email: string;
  name?: string;
  [k: string]: unknown;
}

export const identities = pgTable(
  'identities',
  {
    id: uuid().primaryKey(),
    nid: uuid().notNull(),
    schema_id: text().notNull().default('default'),
    traits: jsonb().$type<Traits>().notNull(),
    metadata_public: jsonb(),
    metadata_admin: jsonb(),
    state: text().notNull().default('active'),
    state_changed_at: timestamp(tstz).notNull().defaultNow(),
    created_at: timestamp(tstz).notNull().defaultNow(),
    updated_at: timestamp(tstz).notNull().defaultNow(),
    /**
     * Ory's Identity.organization_id: the organization whose SSO registered it (or an admin gave it); null when
     * none. Checked on write against the tenant's organizations (no foreign key: the identity provider does not
     * depend on the control plane's tables); deleting an organization clears it (organization/store.ts).
     */
    organization_id: uuid(),
  },
  (t) => [
    index('identities_nid').on(t.nid, t.id),
    index('identities_organization_idx').on(t.nid, t.organization_id),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey(),
    nid: uuid().notNull(),
    token_hash: text().notNull(),
    logout_token_hash: text().notNull(),
    identity_id: uuid().notNull(),
    active: boolean().notNull().default(true),
    aal: text().notNull().default('aal1'),
    authentication_methods: jsonb().$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    devices: jsonb().$type<unknown[]>().notNull().default(sql`'[]'::jsonb`),
    authenticated_at: timestamp(tstz).notNull(),
    issued_at: timestamp(tstz).notNull(),
    expires_at: timestamp(tstz).notNull(),
  },
  (t) => [
    unique('sessions_token_hash_key').on(t.token_hash),
    unique('sessions_logout_token_hash_key').on(t.logout_token_hash),
    foreignKey({ name: 'sessions_identity_id_fkey', columns: [t.identity_id], foreignColumns: [identities.id] }).onDelete('cascade'),
    index('sessions_identity').on(t.identity_id),
    index('sessions_nid').on(t.nid, t.id),
  ],
);

export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid().primaryKey(),
    name: text().notNull(),
    access_policy: text(),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [index('workspaces_created_at_idx').on(t.created_at, t.id)],
);

export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspace_id: uuid().notNull(),
    identity_id: uuid().notNull(),
    role: text().notNull(),
    created_at: timestamp(tstz).notNull(),
  },
  (t) => [
    primaryKey({ name: 'workspace_members_pkey', columns: [t.workspace_id, t.identity_id] }),
    foreignKey({ name: 'workspace_members_workspace_id_fkey', columns: [t.workspace_id], foreignColumns: [workspaces.id] }).onDelete(
      'cascade',
    ),
    foreignKey({ name: 'workspace_members_identity_id_fkey', columns: [t.identity_id], foreignColumns: [identities.id] }).onDelete(
      'cascade',
    ),
    check('workspace_members_role_check', sql`${t.role} IN ('owner', 'developer')`),
    index('workspace_members_identity_idx').on(t.identity_id),
  ],
);

export const projects = pgTable(
  'projects',
  {
    id: uuid().primaryKey(),
    slug: text().notNull(),
    state: text().notNull().default('running'),
    environment: text().notNull(),
    home_region: text().notNull().default('eu-central'),
    workspace_id: uuid(),
    subscription_id: text(),
    current_revision_id: uuid().notNull(),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    unique('projects_slug_key').on(t.slug),
    check('projects_state_check', sql`${t.state} IN ('running', 'halted', 'deleted')`),
    check('projects_environment_check', sql`${t.environment} IN ('prod', 'stage', 'dev')`),
    foreignKey({ name: 'projects_workspace_id_fkey', columns: [t.workspace_id], foreignColumns: [workspaces.id] }).onDelete('set null'),
    index('projects_workspace_idx').on(t.workspace_id, t.created_at, t.id),
  ],
);

export const projectRevisions = pgTable(
  'project_revisions',
  {
    id: uuid().primaryKey(),
    project_id: uuid().notNull(),
    name: text().notNull(),
    fields: jsonb().notNull().default(sql`'{}'::jsonb`),
    services: jsonb().notNull().default(sql`'{}'::jsonb`),
    created_at: timestamp(tstz).notNull(),
    /** Who wrote the revision (the signed-in member, or the owner of the key used); null before authors were kept. */
    created_by: uuid(),
  },
  (t) => [
    foreignKey({ name: 'project_revisions_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete(
      'cascade',
    ),
    index('project_revisions_project_idx').on(t.project_id, t.created_at),
  ],
);

export const projectMembers = pgTable(
  'project_members',
  {
    project_id: uuid().notNull(),
    identity_id: uuid().notNull(),
    role: text().notNull(),
    created_at: timestamp(tstz).notNull(),
  },
  (t) => [
    primaryKey({ name: 'project_members_pkey', columns: [t.project_id, t.identity_id] }),
    foreignKey({ name: 'project_members_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete('cascade'),
    foreignKey({ name: 'project_members_identity_id_fkey', columns: [t.identity_id], foreignColumns: [identities.id] }).onDelete(
      'cascade',
    ),
    check('project_members_role_check', sql`${t.role} IN ('owner', 'developer')`),
    index('project_members_identity_idx').on(t.identity_id),
  ],
);

/*
 * API keys: the secret is stored only as its SHA-256 (hex); `last_characters` lets a list tell keys apart.
 * A key goes with its project or workspace and with the identity that created it.
 */
const apiKeyColumns = {
  id: uuid().primaryKey(),
  owner_id: uuid().notNull(),
  name: text().notNull(),
  token_hash: text().notNull(),
  last_characters: text().notNull(),
  expires_at: timestamp(tstz),
  created_at: timestamp(tstz).notNull(),
  updated_at: timestamp(tstz).notNull(),
};

export const projectApiKeys = pgTable(
  'project_api_keys',
  { ...apiKeyColumns, project_id: uuid().notNull() },
  (t) => [
    unique('project_api_keys_token_hash_key').on(t.token_hash),
    foreignKey({ name: 'project_api_keys_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete(
      'cascade',
    ),
    foreignKey({ name: 'project_api_keys_owner_id_fkey', columns: [t.owner_id], foreignColumns: [identities.id] }).onDelete(
      'cascade',
    ),
    index('project_api_keys_project_idx').on(t.project_id, t.created_at, t.id),
  ],
);

export const workspaceApiKeys = pgTable(
  'workspace_api_keys',
  { ...apiKeyColumns, workspace_id: uuid().notNull() },
  (t) => [
    unique('workspace_api_keys_token_hash_key').on(t.token_hash),
    foreignKey({
      name: 'workspace_api_keys_workspace_id_fkey',
      columns: [t.workspace_id],
      foreignColumns: [workspaces.id],
    }).onDelete('cascade'),
    foreignKey({ name: 'workspace_api_keys_owner_id_fkey', columns: [t.owner_id], foreignColumns: [identities.id] }).onDelete(
      'cascade',
    ),
    index('workspace_api_keys_workspace_idx').on(t.workspace_id, t.created_at, t.id),
  ],
);

/**
 * The answers of writes sent with an `Idempotency-Key` header (`kernel/idempotency.ts`), per caller and key:
 * stored in the write's own transaction, so a key is here exactly when its write committed, and a request sent
 * again with the same key (after a lost connection, to any instance) gets the stored answer instead of a
 * second write. Kept a day.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    /** Who sent it (`identity:…`, `workspace-key:…`, `project-key:…`): a key is one caller's own. */
    caller: text().notNull(),
    key: text().notNull(),
    /** SHA-256 of the method, path and body: the same key with another request is refused. */
    fingerprint: text().notNull(),
    /** The answer's status: null only inside the write's transaction, before its handler has answered. */
    status: integer(),
    /** The answer's JSON text; null for a 204. */
    body: text(),
    created_at: timestamp(tstz).notNull(),
  },
  (t) => [primaryKey({ name: 'idempotency_keys_pkey', columns: [t.caller, t.key] }), index('idempotency_keys_created_idx').on(t.created_at)],
);

export type IdentityRow = typeof identities.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type WorkspaceRow = typeof workspaces.$inferSelect;
export type WorkspaceMemberRow = typeof workspaceMembers.$inferSelect;
export type ProjectRow = typeof projects.$inferSelect;
export type ProjectRevisionRow = typeof projectRevisions.$inferSelect;
export type ProjectMemberRow = typeof projectMembers.$inferSelect;
export type ProjectApiKeyRow = typeof projectApiKeys.$inferSelect;
export type WorkspaceApiKeyRow = typeof workspaceApiKeys.$inferSelect;

import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { projectApiKeys, projects, workspaceApiKeys, type ProjectApiKeyRow, type WorkspaceApiKeyRow } from '../project/schema';
import type { Queryable } from '../kernel/queryable';
import { newSecret } from './secret';
import { authorizationChanged } from '../kernel/authz-cache';

export interface NewApiKey {
  name: string;
  expiresAt: Date | null;
  ownerId: string;
}

/** A stored key and, once, its secret value. */
export interface CreatedKey<Row> {
  row: Row;
  value: string;
}

/*
 * Project and workspace keys are one design in two tables (the same columns plus the id of what they
 * belong to), so every operation is written once over this table of scopes. The tables' common columns are
 * what the shared code touches; the scope's own column is named by `scopeKey`.
 */
const SCOPES = {
  project: { table: projectApiKeys, scopeColumn: projectApiKeys.project_id, scopeKey: 'project_id' },
  workspace: { table: workspaceApiKeys, scopeColumn: workspaceApiKeys.workspace_id, scopeKey: 'workspace_id' },
} as const;

type Scope = keyof typeof SCOPES;
type RowOf<S extends Scope> = S extends 'project' ? ProjectApiKeyRow : WorkspaceApiKeyRow;
/** Drizzle's builders are typed per table; both tables have the columns used below. */
type AnyKeyTable = typeof projectApiKeys;

async function createKey<S extends Scope>(q: Queryable, scope: S, scopeId: string, key: NewApiKey): Promise<CreatedKey<RowOf<S>>> {
  const { table, scopeKey } = SCOPES[scope];
  const secret = newSecret(scope);
  const now = new Date();
  const values = {
    id: randomUUID(),
    [scopeKey]: scopeId,
    owner_id: key.ownerId,
    name: key.name,
    token_hash: secret.hash,
    last_characters: secret.lastCharacters,
    expires_at: key.expiresAt,
    created_at: now,
    updated_at: now,
  };
  const [row] = await q.orm
    .insert(table as AnyKeyTable)
    .values(values as AnyKeyTable['$inferInsert'])
    .returning();
  return { row: row as RowOf<S>, value: secret.value };
}

async function listKeys<S extends Scope>(q: Queryable, scope: S, scopeId: string): Promise<RowOf<S>[]> {
  const { table, scopeColumn } = SCOPES[scope];
  const t = table as AnyKeyTable;
  const rows: unknown[] = await q.orm.select().from(t).where(eq(scopeColumn, scopeId)).orderBy(t.created_at, t.id);
  return rows as RowOf<S>[];
}

/** Deletes the key of that project or workspace; false when it has no key with that id. */
async function deleteKey(q: Queryable, scope: Scope, scopeId: string, keyId: string): Promise<boolean> {
  const { table, scopeColumn } = SCOPES[scope];
  const t = table as AnyKeyTable;
  const rows = await q.orm
    .delete(t)
    .where(and(eq(scopeColumn, scopeId), eq(t.id, keyId)))
    .returning({ id: t.id });
  authorizationChanged();
  return rows.length > 0;
}

export const createProjectApiKey = (q: Queryable, projectId: string, key: NewApiKey) => createKey(q, 'project', projectId, key);
export const createWorkspaceApiKey = (q: Queryable, workspaceId: string, key: NewApiKey) =>
  createKey(q, 'workspace', workspaceId, key);
export const listProjectApiKeys = (q: Queryable, projectId: string) => listKeys(q, 'project', projectId);
export const listWorkspaceApiKeys = (q: Queryable, workspaceId: string) => listKeys(q, 'workspace', workspaceId);
export const deleteProjectApiKey = (q: Queryable, projectId: string, keyId: string) => deleteKey(q, 'project', projectId, keyId);
export const deleteWorkspaceApiKey = (q: Queryable, workspaceId: string, keyId: string) =>
  deleteKey(q, 'workspace', workspaceId, keyId);

/**
 * Deletes the keys `ownerId` created on a project, or on a workspace and every project in it: a key acts
 * with its creator's authority, which ends when the creator leaves (the console names these keys before
 * it removes the member).
 */
export async function revokeKeysCreatedBy(q: Queryable, ownerId: string, scope: { projectId: string } | { workspaceId: string }): Promise<void> {
  authorizationChanged();
  if ('projectId' in scope) {
    await q.orm.delete(projectApiKeys).where(and(eq(projectApiKeys.owner_id, ownerId), eq(projectApiKeys.project_id, scope.projectId)));
    return;
  }
  await q.orm.delete(workspaceApiKeys).where(and(eq(workspaceApiKeys.owner_id, ownerId), eq(workspaceApiKeys.workspace_id, scope.workspaceId)));
  const inWorkspace = q.orm.select({ id: projects.id }).from(projects).where(eq(projects.workspace_id, scope.workspaceId));
  await q.orm.delete(projectApiKeys).where(and(eq(projectApiKeys.owner_id, ownerId), inArray(projectApiKeys.project_id, inWorkspace)));
}

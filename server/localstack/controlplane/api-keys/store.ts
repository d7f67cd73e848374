import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { projectApiKeys, workspaceApiKeys, type ProjectApiKeyRow, type WorkspaceApiKeyRow } from '../schema';
import type { Queryable } from '../types';
import { newSecret } from './secret';

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

export async function createProjectApiKey(
  q: Queryable,
  projectId: string,
  key: NewApiKey,
): Promise<CreatedKey<ProjectApiKeyRow>> {
  const secret = newSecret('project');
  const now = new Date();
  const [row] = await q.orm
    .insert(projectApiKeys)
    .values({
      id: randomUUID(),
      project_id: projectId,
      owner_id: key.ownerId,
      name: key.name,
      token_hash: secret.hash,
      last_characters: secret.lastCharacters,
      expires_at: key.expiresAt,
      created_at: now,
      updated_at: now,
    })
    .returning();
  return { row: row!, value: secret.value };
}

export async function createWorkspaceApiKey(
  q: Queryable,
  workspaceId: string,
  key: NewApiKey,
): Promise<CreatedKey<WorkspaceApiKeyRow>> {
  const secret = newSecret('workspace');
  const now = new Date();
  const [row] = await q.orm
    .insert(workspaceApiKeys)
    .values({
      id: randomUUID(),
      workspace_id: workspaceId,
      owner_id: key.ownerId,
      name: key.name,
      token_hash: secret.hash,
      last_characters: secret.lastCharacters,
      expires_at: key.expiresAt,
      created_at: now,
      updated_at: now,
    })
    .returning();
  return { row: row!, value: secret.value };
}

export function listProjectApiKeys(q: Queryable, projectId: string): Promise<ProjectApiKeyRow[]> {
  return q.orm
    .select()
    .from(projectApiKeys)
    .where(eq(projectApiKeys.project_id, projectId))
    .orderBy(projectApiKeys.created_at, projectApiKeys.id);
}

export function listWorkspaceApiKeys(q: Queryable, workspaceId: string): Promise<WorkspaceApiKeyRow[]> {
  return q.orm
    .select()
    .from(workspaceApiKeys)
    .where(eq(workspaceApiKeys.workspace_id, workspaceId))
    .orderBy(workspaceApiKeys.created_at, workspaceApiKeys.id);
}

/** Deletes the project's key; false when the project has no key with that id. */
export async function deleteProjectApiKey(q: Queryable, projectId: string, keyId: string): Promise<boolean> {
  const rows = await q.orm
    .delete(projectApiKeys)
    .where(and(eq(projectApiKeys.project_id, projectId), eq(projectApiKeys.id, keyId)))
    .returning({ id: projectApiKeys.id });
  return rows.length > 0;
}

export async function deleteWorkspaceApiKey(q: Queryable, workspaceId: string, keyId: string): Promise<boolean> {
  const rows = await q.orm
    .delete(workspaceApiKeys)
    .where(and(eq(workspaceApiKeys.workspace_id, workspaceId), eq(workspaceApiKeys.id, keyId)))
    .returning({ id: workspaceApiKeys.id });
  return rows.length > 0;
}

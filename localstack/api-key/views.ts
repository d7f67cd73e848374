import type { ProjectApiKey, WorkspaceApiKey } from '@ory/client';
import type { ProjectApiKeyRow, WorkspaceApiKeyRow } from '../project/schema';

/** The fields both kinds of key show; the secret `value` only in the answer that creates the key. */
function common(row: ProjectApiKeyRow | WorkspaceApiKeyRow, value?: string) {
  return {
    id: row.id,
    name: row.name,
    owner_id: row.owner_id,
    last_characters: row.last_characters,
    ...(row.expires_at ? { expires_at: row.expires_at.toISOString() } : {}),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ...(value !== undefined ? { value } : {}),
  };
}

export const projectApiKeyView = (row: ProjectApiKeyRow, value?: string) =>
  ({ ...common(row, value), project_id: row.project_id }) satisfies ProjectApiKey;

export const workspaceApiKeyView = (row: WorkspaceApiKeyRow, value?: string) =>
  ({ ...common(row, value), workspace_id: row.workspace_id }) satisfies WorkspaceApiKey;

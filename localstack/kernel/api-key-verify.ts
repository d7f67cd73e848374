import { eq, getTableColumns, sql } from 'drizzle-orm';
import { projectApiKeys, workspaceApiKeys } from './tables';
import type { Queryable } from './queryable';
import { apiKeyKind, hashApiKey, sameHash } from './api-key-secret';
import { createAuthorizationCache } from './authz-cache';

/** Who an API key speaks for. */
export type ApiKeyCaller =
  | { kind: 'project'; projectId: string; keyId: string; ownerId: string }
  | { kind: 'workspace'; workspaceId: string; keyId: string; ownerId: string };

/** The key of an `Authorization: Bearer <key>` header, or null when there is none. */
export function bearerToken(authorization: string | undefined | null): string | null {
  if (!authorization) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  return match ? match[1]! : null;
}

/*
 * A key acts with its creator's authority: it works only while the creator is an owner of what the key
 * belongs to (a project's owner directly or through its workspace). Removing a member deletes their keys;
 * this also covers a creator demoted to developer, and keys of members removed before keys were revoked.
 */
// Written out with table names: drizzle leaves columns of a one-table select unqualified, which the
// subqueries' own columns of the same names would capture.
const projectCreatorIsOwner = sql<boolean>`(EXISTS (SELECT 1 FROM project_members pm
    WHERE pm.project_id = project_api_keys.project_id AND pm.identity_id = project_api_keys.owner_id AND pm.role = 'owner')
  OR EXISTS (SELECT 1 FROM workspace_members wm JOIN projects p ON p.workspace_id = wm.workspace_id
    WHERE p.id = project_api_keys.project_id AND wm.identity_id = project_api_keys.owner_id AND wm.role = 'owner'))`;
const workspaceCreatorIsOwner = sql<boolean>`EXISTS (SELECT 1 FROM workspace_members wm
    WHERE wm.workspace_id = workspace_api_keys.workspace_id AND wm.identity_id = workspace_api_keys.owner_id AND wm.role = 'owner')`;

/** Project keys by hash, for the project API calls that present them (see authz-cache.ts). */
const projectKeys = createAuthorizationCache<typeof projectApiKeys.$inferSelect & { creatorIsOwner: boolean }>(1000);

/**
 * Authenticates an `Authorization: Bearer ory_pat_…` (project) or `ory_wak_…` (workspace) header. Null
 * when the header is missing or malformed, or the key is unknown, deleted or expired, or its creator is no
 * longer an owner of what it belongs to (expiry read at `now`, the stack's clock). The stored hash is
 * compared in constant time; the key itself is never stored.
 */
export async function authenticateApiKey(
  q: Queryable,
  authorizationHeader: string | undefined | null,
  now: Date,
): Promise<ApiKeyCaller | null> {
  const token = bearerToken(authorizationHeader);
  const kind = token ? apiKeyKind(token) : null;
  if (!token || !kind) return null;
  const hash = hashApiKey(token);
  const live = (row: { token_hash: string; expires_at: Date | null }) =>
    sameHash(row.token_hash, hash) && (row.expires_at === null || row.expires_at.getTime() > now.getTime());
  if (kind === 'project') {
    // Only keys that work are kept; their expiry is read again at every use.
    const row = await projectKeys.get(q, hash, async () => {
      const [found] = await q.orm
        .select({ ...getTableColumns(projectApiKeys), creatorIsOwner: projectCreatorIsOwner })
        .from(projectApiKeys)
        .where(eq(projectApiKeys.token_hash, hash));
      return found?.creatorIsOwner ? found : null;
    });
    if (!row || !live(row) || !row.creatorIsOwner) return null;
    return { kind, projectId: row.project_id, keyId: row.id, ownerId: row.owner_id };
  }
  const [row] = await q.orm
    .select({ ...getTableColumns(workspaceApiKeys), creatorIsOwner: workspaceCreatorIsOwner })
    .from(workspaceApiKeys)
    .where(eq(workspaceApiKeys.token_hash, hash));
  if (!row || !live(row) || !row.creatorIsOwner) return null;
  return { kind, workspaceId: row.workspace_id, keyId: row.id, ownerId: row.owner_id };
}

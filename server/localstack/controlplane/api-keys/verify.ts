import { eq } from 'drizzle-orm';
import { projectApiKeys, workspaceApiKeys } from '../schema';
import type { Queryable } from '../types';
import { apiKeyKind, hashApiKey, sameHash } from './secret';

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

/**
 * Authenticates an `Authorization: Bearer ory_pat_…` (project) or `ory_wak_…` (workspace) header. Null
 * when the header is missing or malformed, or the key is unknown, deleted or expired. The stored hash is
 * compared in constant time; the key itself is never stored.
 */
export async function authenticateApiKey(
  q: Queryable,
  authorizationHeader: string | undefined | null,
): Promise<ApiKeyCaller | null> {
  const token = bearerToken(authorizationHeader);
  const kind = token ? apiKeyKind(token) : null;
  if (!token || !kind) return null;
  const hash = hashApiKey(token);
  const now = Date.now();
  const live = (row: { token_hash: string; expires_at: Date | null }) =>
    sameHash(row.token_hash, hash) && (row.expires_at === null || row.expires_at.getTime() > now);
  if (kind === 'project') {
    const [row] = await q.orm.select().from(projectApiKeys).where(eq(projectApiKeys.token_hash, hash));
    if (!row || !live(row)) return null;
    return { kind, projectId: row.project_id, keyId: row.id, ownerId: row.owner_id };
  }
  const [row] = await q.orm.select().from(workspaceApiKeys).where(eq(workspaceApiKeys.token_hash, hash));
  if (!row || !live(row)) return null;
  return { kind, workspaceId: row.workspace_id, keyId: row.id, ownerId: row.owner_id };
}

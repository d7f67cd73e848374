import { and, eq } from 'drizzle-orm';
import { projectMembers, workspaceMembers, type ProjectRow } from './tables';
import type { Queryable } from './queryable';
import { createAuthorizationCache } from './authz-cache';

export type Role = 'owner' | 'developer';

const RANK: Record<Role, number> = { developer: 1, owner: 2 };

export function highestRole(roles: readonly string[]): Role | null {
  let best: Role | null = null;
  for (const role of roles) {
    if (role !== 'owner' && role !== 'developer') continue;
    if (!best || RANK[role] > RANK[best]) best = role;
  }
  return best;
}

/**
 * Memberships by identity and workspace or project (authz-cache.ts): every permission check reads them, and a
 * member added, removed or given another role makes every entry stale. Inside a transaction they are read afresh.
 */
const workspaceRoles = createAuthorizationCache<{ role: Role }>(10_000);
const directProjectRoles = createAuthorizationCache<{ role: Role }>(10_000);

const found = (role: Role | null) => (role ? { role } : null);

export async function workspaceRole(q: Queryable, identityId: string, workspaceId: string): Promise<Role | null> {
  const member = await workspaceRoles.get(q, `${identityId}|${workspaceId}`, async () => {
    const rows = await q.orm
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspace_id, workspaceId), eq(workspaceMembers.identity_id, identityId)));
    return found(highestRole(rows.map((r) => r.role)));
  });
  return member?.role ?? null;
}

/** The identity's role on a project: through the project's workspace or as a direct member, the higher wins. */
export async function projectRole(
  q: Queryable,
  identityId: string,
  project: Pick<ProjectRow, 'id' | 'workspace_id'>,
): Promise<Role | null> {
  const direct = await directProjectRoles.get(q, `${identityId}|${project.id}`, async () => {
    const rows = await q.orm
      .select({ role: projectMembers.role })
      .from(projectMembers)
      .where(and(eq(projectMembers.project_id, project.id), eq(projectMembers.identity_id, identityId)));
    return found(highestRole(rows.map((r) => r.role)));
  });
  const viaWorkspace = project.workspace_id ? await workspaceRole(q, identityId, project.workspace_id) : null;
  return highestRole([...(direct ? [direct.role] : []), ...(viaWorkspace ? [viaWorkspace] : [])]);
}

/**
 * What each role may do. Owners may do everything; developers may read and write but neither delete
 * (purge), upgrade (billing) nor manage the team and API keys (owner). Unknown permission names are never granted.
 */
const GRANTS: Record<string, readonly Role[]> = {
  'backoffice.project.read': ['owner', 'developer'],
  'backoffice.project.write': ['owner', 'developer'],
  'backoffice.project.delete': ['owner'],
  'backoffice.project.upgrade': ['owner'],
  'backoffice.project.owner': ['owner'],
  'backoffice.workspace.read': ['owner', 'developer'],
  'backoffice.workspace.write': ['owner', 'developer'],
  'backoffice.workspace.delete': ['owner'],
  'backoffice.workspace.upgrade': ['owner'],
  'backoffice.workspace.owner': ['owner'],
};

export function isAllowed(role: Role | null, permission: string): boolean {
  if (!role) return false;
  return Object.hasOwn(GRANTS, permission) && GRANTS[permission]!.includes(role);
}

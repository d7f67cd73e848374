import type { Queryable } from '../types';
import type { ProjectRow } from './projects';

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

export async function workspaceRole(q: Queryable, identityId: string, workspaceId: string): Promise<Role | null> {
  const rows = await q.query<{ role: string }>(
    'SELECT role FROM workspace_members WHERE workspace_id = $1 AND identity_id = $2',
    [workspaceId, identityId],
  );
  return highestRole(rows.map((r) => r.role));
}

/** The caller's role on a project: through the project's workspace or as a direct member, the higher wins. */
export async function projectRole(
  q: Queryable,
  identityId: string,
  project: Pick<ProjectRow, 'id' | 'workspace_id'>,
): Promise<Role | null> {
  const rows = await q.query<{ role: string }>(
    `SELECT role FROM project_members WHERE project_id = $1 AND identity_id = $2
     UNION ALL
     SELECT role FROM workspace_members WHERE workspace_id = $3 AND identity_id = $2`,
    [project.id, identityId, project.workspace_id],
  );
  return highestRole(rows.map((r) => r.role));
}

/**
 * What each role may do. Owners may do everything; developers may read and write but neither delete
 * (purge) nor upgrade (billing). Unknown permission names are never granted.
 */
const GRANTS: Record<string, readonly Role[]> = {
  'backoffice.project.read': ['owner', 'developer'],
  'backoffice.project.write': ['owner', 'developer'],
  'backoffice.project.delete': ['owner'],
  'backoffice.project.upgrade': ['owner'],
  'backoffice.workspace.read': ['owner', 'developer'],
  'backoffice.workspace.write': ['owner', 'developer'],
  'backoffice.workspace.delete': ['owner'],
  'backoffice.workspace.upgrade': ['owner'],
};

export function isAllowed(role: Role | null, permission: string): boolean {
  if (!role) return false;
  return Object.hasOwn(GRANTS, permission) && GRANTS[permission]!.includes(role);
}

import type { Queryable } from '../types';
import { highestRole } from './roles';

export interface MemberRow {
  id: string;
  role: string;
  source: 'project' | 'workspace';
  traits: { email?: unknown; name?: unknown } | null;
  email_verified: boolean;
}

const IDENTITY_COLUMNS = `i.traits,
  EXISTS (SELECT 1 FROM identity_verifiable_addresses a
          WHERE a.identity_id = i.id AND a.verified AND lower(a.value) = lower(i.traits->>'email')) AS email_verified`;

/** Direct project members and, when the project is in a workspace, the workspace's members. */
export async function projectMemberRows(
  q: Queryable,
  projectId: string,
  workspaceId: string | null,
): Promise<MemberRow[]> {
  return q.query<MemberRow>(
    `WITH m AS (
       SELECT identity_id, role, 'project' AS source, created_at FROM project_members WHERE project_id = $1
       UNION ALL
       SELECT identity_id, role, 'workspace' AS source, created_at FROM workspace_members WHERE workspace_id = $2
     )
     SELECT m.identity_id AS id, m.role, m.source, ${IDENTITY_COLUMNS}
     FROM m JOIN identities i ON i.id = m.identity_id
     ORDER BY m.created_at, m.identity_id`,
    [projectId, workspaceId],
  );
}

export async function workspaceMemberRows(q: Queryable, workspaceId: string): Promise<MemberRow[]> {
  return q.query<MemberRow>(
    `SELECT m.identity_id AS id, m.role, 'workspace' AS source, ${IDENTITY_COLUMNS}
     FROM workspace_members m JOIN identities i ON i.id = m.identity_id
     WHERE m.workspace_id = $1
     ORDER BY m.created_at, m.identity_id`,
    [workspaceId],
  );
}

/** projectMember: one entry per identity, with its highest role (workspace wins a tie). */
export function memberViews(rows: MemberRow[]) {
  const byId = new Map<string, MemberRow>();
  for (const row of rows) {
    const seen = byId.get(row.id);
    if (!seen) {
      byId.set(row.id, row);
      continue;
    }
    const best = highestRole([seen.role, row.role]);
    if (best !== seen.role || (row.role === seen.role && row.source === 'workspace')) byId.set(row.id, row);
  }
  return [...byId.values()].map((row) => ({
    id: row.id,
    name: typeof row.traits?.name === 'string' ? row.traits.name : '',
    email: typeof row.traits?.email === 'string' ? row.traits.email : '',
    email_verified: row.email_verified === true,
    role: row.role,
    source: row.source,
  }));
}

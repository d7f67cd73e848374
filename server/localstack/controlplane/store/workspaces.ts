import { randomUUID } from 'node:crypto';
import type { Queryable } from '../types';
import { nowIso } from './time';

export interface WorkspaceRow {
  id: string;
  name: string;
  access_policy: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const COLUMNS = 'w.id, w.name, w.access_policy, w.created_at, w.updated_at';

export async function findWorkspace(q: Queryable, id: string): Promise<WorkspaceRow | undefined> {
  const rows = await q.query<WorkspaceRow>(`SELECT ${COLUMNS} FROM workspaces w WHERE w.id = $1`, [id]);
  return rows[0];
}

export async function createWorkspace(q: Queryable, name: string, ownerId: string): Promise<WorkspaceRow> {
  const id = randomUUID();
  const now = nowIso();
  await q.query('INSERT INTO workspaces (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)', [id, name, now]);
  await q.query(
    `INSERT INTO workspace_members (workspace_id, identity_id, role, created_at) VALUES ($1, $2, 'owner', $3)`,
    [id, ownerId, now],
  );
  return (await findWorkspace(q, id))!;
}

export async function updateWorkspace(
  q: Queryable,
  id: string,
  name: string,
  accessPolicy: string | undefined,
): Promise<WorkspaceRow> {
  await q.query(
    `UPDATE workspaces SET name = $2, access_policy = COALESCE($3, access_policy), updated_at = $4 WHERE id = $1`,
    [id, name, accessPolicy ?? null, nowIso()],
  );
  return (await findWorkspace(q, id))!;
}

export interface WorkspaceCursor {
  createdAt: string;
  id: string;
}

/** One page of the identity's workspaces in (created_at, id) order; one extra row tells if more follow. */
export async function listMemberWorkspaces(
  q: Queryable,
  identityId: string,
  pageSize: number,
  after: WorkspaceCursor | null,
): Promise<WorkspaceRow[]> {
  const params: unknown[] = [identityId, pageSize + 1];
  let where = '';
  if (after) {
    params.push(after.createdAt, after.id);
    where = 'AND (w.created_at, w.id) > ($3::timestamptz, $4::uuid)';
  }
  return q.query<WorkspaceRow>(
    `SELECT ${COLUMNS} FROM workspaces w
     JOIN workspace_members m ON m.workspace_id = w.id AND m.identity_id = $1
     WHERE true ${where}
     ORDER BY w.created_at, w.id
     LIMIT $2`,
    params,
  );
}

import { randomUUID } from 'node:crypto';
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Queryable } from '../types';
import { workspaceMembers, workspaces, type WorkspaceRow } from '../schema';

export type { WorkspaceRow } from '../schema';

export async function findWorkspace(q: Queryable, id: string): Promise<WorkspaceRow | undefined> {
  const [row] = await q.orm.select().from(workspaces).where(eq(workspaces.id, id));
  return row;
}

export async function createWorkspace(q: Queryable, name: string, ownerId: string): Promise<WorkspaceRow> {
  const now = new Date();
  const [row] = await q.orm.insert(workspaces).values({ id: randomUUID(), name, created_at: now, updated_at: now }).returning();
  await q.orm.insert(workspaceMembers).values({ workspace_id: row!.id, identity_id: ownerId, role: 'owner', created_at: now });
  return row!;
}

/** Renames the workspace; the access policy changes only when one is given. */
export async function updateWorkspace(
  q: Queryable,
  id: string,
  name: string,
  accessPolicy: string | undefined,
): Promise<WorkspaceRow> {
  const [row] = await q.orm
    .update(workspaces)
    .set({ name, updated_at: new Date(), ...(accessPolicy !== undefined ? { access_policy: accessPolicy } : {}) })
    .where(eq(workspaces.id, id))
    .returning();
  return row!;
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
  return q.orm
    .select(getTableColumns(workspaces))
    .from(workspaces)
    .innerJoin(workspaceMembers, and(eq(workspaceMembers.workspace_id, workspaces.id), eq(workspaceMembers.identity_id, identityId)))
    .where(after ? sql`(${workspaces.created_at}, ${workspaces.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)` : undefined)
    .orderBy(workspaces.created_at, workspaces.id)
    .limit(pageSize + 1);
}

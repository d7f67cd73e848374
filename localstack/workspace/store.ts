import { randomUUID } from 'node:crypto';
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Queryable } from '../kernel/queryable';
import { workspaceMembers, workspaces, type WorkspaceRow } from '../project/schema';

export type { WorkspaceRow } from '../project/schema';

export { findWorkspace } from '../kernel/records';

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

import type { WorkspaceCursor } from '../kernel/row-page-token';

export type { WorkspaceCursor } from '../kernel/row-page-token';

/** Whose workspaces a list shows: those an identity is a member of, or the one workspace of a key. */
export type WorkspaceScope = { memberId: string } | { workspaceId: string };

/** One page of the scope's workspaces in (created_at, id) order; one extra row tells if more follow. */
export async function listWorkspaces(
  q: Queryable,
  scope: WorkspaceScope,
  pageSize: number,
  after: WorkspaceCursor | null,
): Promise<WorkspaceRow[]> {
  const base = q.orm.select(getTableColumns(workspaces)).from(workspaces);
  const scoped =
    'memberId' in scope
      ? base.innerJoin(
          workspaceMembers,
          and(eq(workspaceMembers.workspace_id, workspaces.id), eq(workspaceMembers.identity_id, scope.memberId)),
        )
      : base;
  return scoped
    .where(
      and(
        'workspaceId' in scope ? eq(workspaces.id, scope.workspaceId) : undefined,
        after ? sql`(${workspaces.created_at}, ${workspaces.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(workspaces.created_at, workspaces.id)
    .limit(pageSize + 1);
}

import { and, eq, sql } from 'drizzle-orm';
import { identities, identityVerifiableAddresses } from '../identity/schema';
import { projectMembers, workspaceMembers } from '../project/schema';
import type { Queryable } from '../kernel/queryable';
import { highestRole } from '../kernel/roles';
import { authorizationChanged } from '../kernel/authz-cache';

/** The identity's email address is verified when one of its verifiable addresses equals it and is verified. */
const emailVerified = sql<boolean>`EXISTS (SELECT 1 FROM ${identityVerifiableAddresses}
  WHERE ${identityVerifiableAddresses.identity_id} = ${identities.id} AND ${identityVerifiableAddresses.verified}
    AND lower(${identityVerifiableAddresses.value}) = lower(${identities.traits}->>'email'))`;

async function directMembers(q: Queryable, projectId: string) {
  return q.orm
    .select({
      id: projectMembers.identity_id,
      role: projectMembers.role,
      created_at: projectMembers.created_at,
      traits: identities.traits,
      email_verified: emailVerified,
    })
    .from(projectMembers)
    .innerJoin(identities, eq(identities.id, projectMembers.identity_id))
    .where(eq(projectMembers.project_id, projectId));
}

async function workspaceMembersOf(q: Queryable, workspaceId: string) {
  return q.orm
    .select({
      id: workspaceMembers.identity_id,
      role: workspaceMembers.role,
      created_at: workspaceMembers.created_at,
      traits: identities.traits,
      email_verified: emailVerified,
    })
    .from(workspaceMembers)
    .innerJoin(identities, eq(identities.id, workspaceMembers.identity_id))
    .where(eq(workspaceMembers.workspace_id, workspaceId));
}

/** A membership with the member's identity, and whether it is direct (project) or through the workspace. */
export type MemberRow = Awaited<ReturnType<typeof directMembers>>[number] & { source: 'project' | 'workspace' };

const byJoined = (a: MemberRow, b: MemberRow) =>
  a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Direct project members and, when the project is in a workspace, the workspace's members. */
export async function projectMemberRows(
  q: Queryable,
  projectId: string,
  workspaceId: string | null,
): Promise<MemberRow[]> {
  const direct = (await directMembers(q, projectId)).map((r) => ({ ...r, source: 'project' as const }));
  const viaWorkspace = workspaceId ? await workspaceMemberRows(q, workspaceId) : [];
  return [...direct, ...viaWorkspace].sort(byJoined);
}

export async function workspaceMemberRows(q: Queryable, workspaceId: string): Promise<MemberRow[]> {
  const rows = await workspaceMembersOf(q, workspaceId);
  return rows.map((r) => ({ ...r, source: 'workspace' as const })).sort(byJoined);
}

export async function removeProjectMember(q: Queryable, projectId: string, identityId: string): Promise<void> {
  await q.orm
    .delete(projectMembers)
    .where(and(eq(projectMembers.project_id, projectId), eq(projectMembers.identity_id, identityId)));
  authorizationChanged();
}

export async function removeWorkspaceMember(q: Queryable, workspaceId: string, identityId: string): Promise<void> {
  await q.orm
    .delete(workspaceMembers)
    .where(and(eq(workspaceMembers.workspace_id, workspaceId), eq(workspaceMembers.identity_id, identityId)));
  authorizationChanged();
}

export async function setProjectMemberRole(q: Queryable, projectId: string, identityId: string, role: string): Promise<void> {
  await q.orm
    .update(projectMembers)
    .set({ role })
    .where(and(eq(projectMembers.project_id, projectId), eq(projectMembers.identity_id, identityId)));
  authorizationChanged();
}

export async function setWorkspaceMemberRole(q: Queryable, workspaceId: string, identityId: string, role: string): Promise<void> {
  await q.orm
    .update(workspaceMembers)
    .set({ role })
    .where(and(eq(workspaceMembers.workspace_id, workspaceId), eq(workspaceMembers.identity_id, identityId)));
  authorizationChanged();
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

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
  return [...byId.values()].map((row) => {
    const traits = (row.traits ?? {}) as { email?: unknown; name?: unknown };
    return {
      id: row.id,
      name: text(traits.name),
      email: text(traits.email),
      email_verified: row.email_verified === true,
      role: row.role,
      source: row.source,
    };
  });
}

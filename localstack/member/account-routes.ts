import type { FastifyInstance } from 'fastify';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import { deleteIdentity } from '../identity/store';
import { conflict, notFound } from '../kernel/errors';
import type { Queryable } from '../kernel/queryable';
import { route, type RouteContext } from '../kernel/route';
import { CONSOLE_NID } from '../kernel/tenant-id';
import { projectMembers, projectRevisions, projects, workspaceMembers, workspaces } from '../project/schema';
import { projectMemberRows, workspaceMemberRows } from './store';

/**
 * The names of what `identityId` is the only owner of: workspaces, and projects no other member owns. Run in
 * the deleting transaction: it locks the rows of everything the identity owns.
 */
export async function soleOwnerships(q: Queryable, identityId: string): Promise<{ workspaces: string[]; projects: string[] }> {
  const ownedWorkspaces = await q.orm
    .select({ id: workspaces.id, name: workspaces.name })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspace_id))
    .where(and(eq(workspaceMembers.identity_id, identityId), eq(workspaceMembers.role, 'owner')));
  const ownedProjects = await q.orm
    .select({ id: projects.id, workspace_id: projects.workspace_id, name: projectRevisions.name })
    .from(projectMembers)
    .innerJoin(projects, eq(projects.id, projectMembers.project_id))
    .innerJoin(projectRevisions, eq(projectRevisions.id, projects.current_revision_id))
    .where(and(eq(projectMembers.identity_id, identityId), eq(projectMembers.role, 'owner'), ne(projects.state, 'deleted')));
  // The rows of what it owns are locked before its other owners are counted, as a member's removal locks its
  // project or workspace: two owners deleting their accounts at once (or one removing the other) are taken one
  // after the other, so the second sees the first gone and is refused instead of leaving nobody in charge.
  if (ownedWorkspaces.length) {
    await q.orm.select({ id: workspaces.id }).from(workspaces).where(inArray(workspaces.id, ownedWorkspaces.map((w) => w.id))).orderBy(asc(workspaces.id)).for('update');
  }
  if (ownedProjects.length) {
    await q.orm.select({ id: projects.id }).from(projects).where(inArray(projects.id, ownedProjects.map((p) => p.id))).orderBy(asc(projects.id)).for('update');
  }
  const lonelyWorkspaces: string[] = [];
  for (const w of ownedWorkspaces) {
    const rows = await workspaceMemberRows(q, w.id);
    if (!rows.some((r) => r.role === 'owner' && r.id !== identityId)) lonelyWorkspaces.push(w.name);
  }
  const lonelyProjects: string[] = [];
  for (const p of ownedProjects) {
    const rows = await projectMemberRows(q, p.id, p.workspace_id);
    if (!rows.some((r) => r.role === 'owner' && r.id !== identityId)) lonelyProjects.push(p.name);
  }
  return {
    workspaces: lonelyWorkspaces.sort(),
    projects: lonelyProjects.sort(),
  };
}

const quoted = (names: string[]) => names.map((n) => `"${n}"`).join(', ');

/**
 * The console account deletes itself (no published call: DELETE /account, a console session only, never an
 * API key). Refused while it is the last owner of a workspace or project, which would be left with nobody to
 * manage it; otherwise the identity goes, and its sessions, memberships, API keys and invites with it.
 */
export function registerAccountRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'DELETE',
    url: '/account',
    auth: 'session',
    status: 204,
    handler: async ({ q, caller }) => {
      const owned = await soleOwnerships(q, caller.identityId);
      const parts = [
        ...(owned.workspaces.length ? [`${owned.workspaces.length === 1 ? 'workspace' : 'workspaces'} ${quoted(owned.workspaces)}`] : []),
        ...(owned.projects.length ? [`${owned.projects.length === 1 ? 'project' : 'projects'} ${quoted(owned.projects)}`] : []),
      ];
      if (parts.length) {
        throw conflict(`You are the last owner of ${parts.join(' and ')}. Make another member owner, or delete it, before you delete your account.`);
      }
      if (!(await deleteIdentity(q, CONSOLE_NID, caller.identityId))) throw notFound('This account no longer exists.');
    },
  });
}

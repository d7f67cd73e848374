import type { Caller } from './caller';
import { forbidden, notFound } from './errors';
import { findProjectByRef, findWorkspace } from './records';
import type { ProjectRow, WorkspaceRow } from './tables';
import { isAllowed, projectRole, workspaceRole, type Role } from './roles';
import type { Queryable } from './queryable';

export type ProjectAction = 'read' | 'write' | 'delete' | 'upgrade' | 'owner';
export type WorkspaceAction = 'read' | 'write' | 'delete' | 'upgrade' | 'owner';
export type ProjectPermission = `backoffice.project.${ProjectAction}`;
export type WorkspacePermission = `backoffice.workspace.${WorkspaceAction}`;
export type Permission = ProjectPermission | WorkspacePermission;

const PROJECT_DENIED: Record<ProjectAction, string> = {
  read: 'You are not a member of this project.',
  write: 'You are not allowed to change this project.',
  delete: 'Only an owner of this project may delete it.',
  upgrade: 'Only an owner of this project may change its plan.',
  owner: 'Only an owner of this project may do this.',
};

/** The caller's role on a project; a workspace key is an owner of the projects in its workspace. */
export async function callerProjectRole(
  q: Queryable,
  caller: Caller,
  project: Pick<ProjectRow, 'id' | 'workspace_id'>,
): Promise<Role | null> {
  if (caller.kind === 'workspace-key') return project.workspace_id === caller.workspaceId ? 'owner' : null;
  return projectRole(q, caller.identityId, project);
}

/** The caller's role on a workspace; a workspace key is an owner of its own workspace only. */
export async function callerWorkspaceRole(q: Queryable, caller: Caller, workspaceId: string): Promise<Role | null> {
  if (caller.kind === 'workspace-key') return workspaceId === caller.workspaceId ? 'owner' : null;
  return workspaceRole(q, caller.identityId, workspaceId);
}

const allows = (role: Role, area: 'project' | 'workspace', action: ProjectAction | WorkspaceAction) =>
  action === 'owner' ? role === 'owner' : isAllowed(role, `backoffice.${area}.${action}`);

/**
 * Loads a project by id or slug and checks the caller's permission on it: 404 when it does not exist, 403
 * when the caller is not a member or their role does not allow `action`. `lock` takes a row lock (writes).
 */
export async function projectFor(
  q: Queryable,
  caller: Caller,
  ref: string,
  action: ProjectAction,
  lock = false,
): Promise<{ project: ProjectRow; role: Role }> {
  const project = await findProjectByRef(q, ref, lock);
  if (!project) throw notFound(`Project ${ref} does not exist.`);
  const role = await callerProjectRole(q, caller, project);
  if (!role) throw forbidden(PROJECT_DENIED.read);
  if (!allows(role, 'project', action)) throw forbidden(PROJECT_DENIED[action]);
  return { project, role };
}

export async function workspaceFor(
  q: Queryable,
  caller: Caller,
  workspaceId: string,
  action: WorkspaceAction,
  lock = false,
): Promise<{ workspace: WorkspaceRow; role: Role }> {
  const workspace = await findWorkspace(q, workspaceId, lock);
  if (!workspace) throw notFound(`Workspace ${workspaceId} does not exist.`);
  const role = await callerWorkspaceRole(q, caller, workspaceId);
  if (!role) throw forbidden('You are not a member of this workspace.');
  if (!allows(role, 'workspace', action)) throw forbidden('Only an owner of this workspace may do this.');
  return { workspace, role };
}

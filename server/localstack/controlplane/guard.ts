import { forbidden, notFound } from './errors';
import { findProject, lockProject, type ProjectRow } from './store/projects';
import { isAllowed, projectRole, workspaceRole, type Role } from './store/roles';
import { findWorkspace, type WorkspaceRow } from './store/workspaces';
import type { Queryable } from './types';

export type ProjectPermission = 'read' | 'write' | 'delete' | 'upgrade';

const PROJECT_DENIED: Record<ProjectPermission, string> = {
  read: 'You are not a member of this project.',
  write: 'You are not allowed to change this project.',
  delete: 'Only an owner of this project may delete it.',
  upgrade: 'Only an owner of this project may change its plan.',
};

/**
 * Loads a project and checks the caller's permission on it: 404 when it does not exist, 403 when the
 * caller is not a member or their role does not allow `permission`. `lock` takes a row lock (writes).
 */
export async function projectFor(
  q: Queryable,
  identityId: string,
  projectId: string,
  permission: ProjectPermission,
  lock = false,
): Promise<{ project: ProjectRow; role: Role }> {
  const project = lock ? await lockProject(q, projectId) : await findProject(q, projectId);
  if (!project) throw notFound(`Project ${projectId} does not exist.`);
  const role = await projectRole(q, identityId, project);
  if (!role) throw forbidden(PROJECT_DENIED.read);
  if (!isAllowed(role, `backoffice.project.${permission}`)) throw forbidden(PROJECT_DENIED[permission]);
  return { project, role };
}

export type WorkspacePermission = 'read' | 'write' | 'delete' | 'upgrade' | 'owner';

export async function workspaceFor(
  q: Queryable,
  identityId: string,
  workspaceId: string,
  permission: WorkspacePermission,
): Promise<{ workspace: WorkspaceRow; role: Role }> {
  const workspace = await findWorkspace(q, workspaceId);
  if (!workspace) throw notFound(`Workspace ${workspaceId} does not exist.`);
  const role = await workspaceRole(q, identityId, workspaceId);
  if (!role) throw forbidden('You are not a member of this workspace.');
  const allowed = permission === 'owner' ? role === 'owner' : isAllowed(role, `backoffice.workspace.${permission}`);
  if (!allowed) throw forbidden('Only an owner of this workspace may do this.');
  return { workspace, role };
}

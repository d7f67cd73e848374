import { trpc } from '../../trpc';
import type { TeamScope } from './scope';

/**
 * Whether the caller may manage this project's or workspace's team and keys (spec §6: false until the
 * answer is known; cached like every permission check).
 */
export function useIsOwner(scope: TeamScope): boolean {
  const project = trpc.permissions.project.useQuery(
    { projectId: 'projectId' in scope ? scope.projectId : '', permissions: ['backoffice.project.owner'] },
    { enabled: 'projectId' in scope, staleTime: 60_000 },
  );
  const workspace = trpc.permissions.workspace.useQuery(
    { workspaceId: 'workspaceId' in scope ? scope.workspaceId : '', permissions: ['backoffice.workspace.owner'] },
    { enabled: 'workspaceId' in scope, staleTime: 60_000 },
  );
  if ('projectId' in scope) return project.data?.['backoffice.project.owner'] === true;
  return workspace.data?.['backoffice.workspace.owner'] === true;
}

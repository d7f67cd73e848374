import { trpc } from '../../trpc';
import type { TeamScope } from './scope';

/**
 * Whether the caller may manage this project's or workspace's team and keys (spec §6: false until the
 * answer is known; cached like every permission check).
 */
export function useIsOwner(scope: TeamScope): boolean {
  return useOwnerAnswer(scope) === true;
}

/**
 * The owner check's answer, or undefined until it arrives: a note for non-owners waits for a known "no",
 * so it never flashes for an owner and pushes the page down while the answer is on its way.
 */
export function useOwnerAnswer(scope: TeamScope): boolean | undefined {
  const project = trpc.permissions.project.useQuery(
    { projectId: 'projectId' in scope ? scope.projectId : '', permissions: ['backoffice.project.owner'] },
    { enabled: 'projectId' in scope, staleTime: 60_000 },
  );
  const workspace = trpc.permissions.workspace.useQuery(
    { workspaceId: 'workspaceId' in scope ? scope.workspaceId : '', permissions: ['backoffice.workspace.owner'] },
    { enabled: 'workspaceId' in scope, staleTime: 60_000 },
  );
  const answer = 'projectId' in scope ? project.data?.['backoffice.project.owner'] : workspace.data?.['backoffice.workspace.owner'];
  return answer === undefined ? undefined : answer === true;
}

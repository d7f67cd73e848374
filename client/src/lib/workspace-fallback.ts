import { errorStatus } from '../../../shared/domain/errors';

/** What a page reads of a workspace query. */
export interface WorkspaceQueryLike<T> {
  data: T | undefined;
  error: unknown;
  isPending: boolean;
  isError: boolean;
  isSuccess: boolean;
  isRefetching: boolean;
  refetch: () => unknown;
}

/**
 * Spec §4/§8: a 403 on workspace loading yields a fallback value (null) and no error; every other error
 * stays an error. Pages show the fallback as "you cannot see this workspace" instead of a failure.
 */
export function withForbiddenFallback<T>(query: WorkspaceQueryLike<T>): WorkspaceQueryLike<T | null> {
  if (!query.isError || errorStatus(query.error) !== 403) return query;
  return { ...query, data: null, error: null, isError: false, isSuccess: true, isPending: false };
}

/** The empty state a workspace page shows for the fallback. */
export const WORKSPACE_FALLBACK = {
  title: 'This workspace is not yours to see',
  description: 'Your role gives you no access to this workspace’s details. Ask one of its owners for access.',
  testId: 'workspace-fallback',
};

import { MutationCache, QueryClient } from '@tanstack/react-query';
import {
  CUSTOM_DOMAINS_GC_MS,
  CUSTOM_DOMAINS_STALE_MS,
  PROJECT_LIST_STALE_MS,
  PROJECT_STALE_MS,
  REFETCH_ON_WINDOW_FOCUS,
  SESSION_STALE_MS,
  WORKSPACE_LIST_STALE_MS,
  WORKSPACE_STALE_MS,
} from '../../../shared/constants';
import { queryRetryDelay, shouldRetryActiveProject, shouldRetryQuery } from '../../../shared/domain/errors';
import { invalidatedKeys } from './invalidation';

/** Per-query cache rules of spec §7 (and the active-project retry rule of spec §8). */
export const QUERY_RULES = {
  session: { staleTime: SESSION_STALE_MS, retry: false },
  workspaceList: { staleTime: WORKSPACE_LIST_STALE_MS },
  projectList: { staleTime: PROJECT_LIST_STALE_MS },
  project: { staleTime: PROJECT_STALE_MS, retry: false },
  workspace: { staleTime: WORKSPACE_STALE_MS },
  activeProject: { retry: shouldRetryActiveProject },
  customDomains: { staleTime: CUSTOM_DOMAINS_STALE_MS, gcTime: CUSTOM_DOMAINS_GC_MS },
} as const;

/** Query hashes filled by a route prefetch (lib/route-prefetch.ts). */
const prefetched = new Set<string>();
/** How long a prefetched answer counts as fresh: it arrives just before the page that asked for it mounts. */
export const PREFETCH_FRESH_MS = 5_000;

export function markPrefetched(queryHash: string): void {
  prefetched.add(queryHash);
}

/**
 * Every mount looks again (staleTime 0), except the first mount after a route prefetch: the answer
 * it brought in a moment ago is what the page asked for, and fetching it twice would only compete
 * with the page's other requests.
 */
export function prefetchAwareStaleTime(query: { queryHash: string; state: { dataUpdateCount: number } }): number {
  return prefetched.has(query.queryHash) && query.state.dataUpdateCount <= 1 ? PREFETCH_FRESH_MS : 0;
}

/**
 * Spec §7/§9 defaults: no refetch on window focus; 3 retries, exponential delay capped at 30 000 ms,
 * and none after a 4xx answer. After a mutation succeeds, the lists it changes (INVALIDATES) are
 * refetched before the page's own onSuccess runs.
 */
export function createQueryClient(): QueryClient {
  const queryClient: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      onSuccess: async (_data, _variables, _context, mutation) => {
        await Promise.all(invalidatedKeys(mutation.options.mutationKey).map((queryKey) => queryClient.invalidateQueries({ queryKey })));
      },
    }),
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: REFETCH_ON_WINDOW_FOCUS,
        staleTime: prefetchAwareStaleTime,
        retry: shouldRetryQuery,
        retryDelay: queryRetryDelay,
      },
      mutations: { retry: false },
    },
  });
  return queryClient;
}

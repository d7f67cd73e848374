import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { TRPCClientError } from '@trpc/client';
import { createTRPCQueryUtils, type TRPCClient } from '@trpc/react-query';
import type { AppRouter } from '../../../server/routers/_app';
import type { RouteDef } from './route-def';
import { markPrefetched, QUERY_RULES } from './query-client';
import { PAGES } from '../page-registry';
import { atPath, FIRST_DATA_ELEMENT_ID, firstQueries, frameQueries, matchRoute, queryId, SESSION_QUERY, type FirstAnswer, type FirstQuery } from '../../../shared/first-queries';

type Utils = ReturnType<typeof createTRPCQueryUtils<AppRouter>>;
type Prefetch = (input?: unknown, options?: object) => Promise<void>;
type SetData = (input: unknown, data: unknown) => void;
type QueryOptions = (input: unknown) => { queryKey: QueryKey };

/** How long a page opened by URL waits for its first data before it shows with placeholders instead. */
export const FIRST_DATA_WAIT_MS = 1500;
/** How long the first render waits for the code of the page opened by URL before it shows the frame. */
export const FIRST_CODE_WAIT_MS = 1000;
/**
 * The same wait when the server has painted the page already (entry-server.tsx): its first paint stays
 * until the code is in, so a render without it would only trade the page for the page area's fallback.
 */
export const FIRST_CODE_WAIT_PAINTED_MS = 10_000;

/** The cache rules of the queries the frame asks for (QUERY_RULES), used when they are prefetched. */
const RULES: Readonly<Record<string, object>> = {
  'auth.session': QUERY_RULES.session,
  'projects.list': QUERY_RULES.projectList,
  'workspaces.list': QUERY_RULES.workspaceList,
  'projects.getActive': QUERY_RULES.activeProject,
  'projects.get': QUERY_RULES.project,
  'projects.endpoint': QUERY_RULES.project,
  'invites.mine': { staleTime: 30_000 },
  'permissions.project': { staleTime: 60_000 },
};

/** The query utilities at a dotted path ('projects.list'): its prefetch and setData. */
const utilsAt = (utils: Utils, path: string) => atPath<{ prefetch: Prefetch; setData: SetData; queryOptions: QueryOptions }>(utils, path);

/** Starts one first query (its cache rules applied); the answer lands in the cache the page reads. */
function prefetch(utils: Utils, [path, input]: FirstQuery): Promise<void> {
  return utilsAt(utils, path).prefetch(input, RULES[path]);
}

/**
 * Puts a refusal in the cache as the page would have met it: the error tRPC's client makes of that answer,
 * after the one attempt its retry rule allows for a 4xx. A query already in the cache is left as it is.
 */
function fillError(queryClient: QueryClient, utils: Utils, path: string, input: unknown, shape: unknown): boolean {
  // Anything but a tRPC error shape gives an error without one: not an answer the page would have met.
  const error = TRPCClientError.from({ error: shape } as Parameters<typeof TRPCClientError.from>[0]);
  if (error.shape === undefined) return false;
  const { queryKey } = utilsAt(utils, path).queryOptions(input);
  if (queryClient.getQueryCache().find({ queryKey, exact: true })) return false;
  queryClient.getQueryCache().build(queryClient, { queryKey }, {
    data: undefined,
    dataUpdateCount: 0,
    dataUpdatedAt: 0,
    error,
    errorUpdateCount: 1,
    errorUpdatedAt: Date.now(),
    fetchFailureCount: 1,
    fetchFailureReason: error,
    fetchMeta: null,
    isInvalidated: false,
    status: 'error',
    fetchStatus: 'idle',
  });
  return true;
}

/** Puts answers in the cache as the page would have received them; answers the ids of the queries filled. */
export function fillAnswers(queryClient: QueryClient, utils: Utils, answers: unknown): Set<string> {
  const filled = new Set<string>();
  for (const answer of Array.isArray(answers) ? (answers as FirstAnswer[]) : []) {
    if (typeof answer?.path !== 'string') continue;
    if (answer.error !== undefined) {
      if (fillError(queryClient, utils, answer.path, answer.input, answer.error)) filled.add(queryId([answer.path, answer.input]));
      continue;
    }
    utilsAt(utils, answer.path).setData(answer.input, answer.data);
    filled.add(queryId([answer.path, answer.input]));
  }
  return filled;
}

/**
 * The first answers the page's HTML carried (server/static-client.ts), put in the cache as the page
 * would have received them: each is then fresh for the page's first mount (markPrefetched).
 */
export function fillFromDocument(queryClient: QueryClient, utils: Utils, doc: Document = document): Set<string> {
  const element = doc.getElementById(FIRST_DATA_ELEMENT_ID);
  if (!element?.textContent) return new Set();
  let answers: unknown;
  try {
    answers = JSON.parse(element.textContent);
  } catch {
    return new Set();
  }
  element.remove();
  let filled = new Set<string>();
  markNew(queryClient, () => {
    filled = fillAnswers(queryClient, utils, answers);
  });
  return filled;
}

/**
 * Route-level prefetch for a page opened by URL: the page's code, the session, the project the route
 * is about and the page's first queries all start at once, as the entry script runs, instead of one
 * after another as each component mounts (session → project → page code → page query). They go in two
 * requests sent together: the session alone (the frame waits on it, never on a slow list), then the rest.
 * What the HTML carried (server/static-client.ts) is put in the cache first and not asked again.
 * Answers `code`, settled when the page's code is in, and for a signed-in page whose first data the HTML
 * did not all carry, `data`, settled when the page's own first queries have settled (or
 * FIRST_DATA_WAIT_MS has passed): the page may wait for that, so it appears whole instead of
 * placeholders giving way to content.
 */
export function prefetchRoute(
  routes: readonly RouteDef[],
  queryClient: QueryClient,
  client: TRPCClient<AppRouter>,
  pathname: string,
  search: string,
): { code?: Promise<unknown>; data?: Promise<void> } {
  const match = matchRoute(routes, pathname);
  if (!match || !match.route.available) return {};
  const { route, params } = match;
  const code = PAGES[route.page].preload().catch(() => undefined);
  if (!route.requiresAuth) return { code };

  const utils = createTRPCQueryUtils<AppRouter>({ queryClient, client });
  const filled = fillFromDocument(queryClient, utils);
  const missing = (query: FirstQuery) => !filled.has(queryId(query));
  // Signed out, as the HTML says: the frame sends the visitor to sign in; there is nothing to ask.
  if (!missing(SESSION_QUERY) && utils.auth.session.getData()?.session == null) return { code };
  const { frame, page } = search === '' || search === '?' ? firstQueries(route.id, params) : { frame: frameQueries(params), page: [] };
  if (!missing(SESSION_QUERY) && [...frame, ...page].every((query) => !missing(query))) return { code };
  let pageData: (value: unknown) => void = () => {};
  const settled = new Promise((resolve) => {
    pageData = resolve;
  });
  // The session decides the frame: it goes in a request of its own, so a slow list never holds the frame
  // back. Everything else starts in the same moment, in a second batch (httpBatchLink batches per tick).
  if (missing(SESSION_QUERY)) markNew(queryClient, () => void prefetch(utils, SESSION_QUERY));
  setTimeout(() => {
    const work: Promise<unknown>[] = [];
    markNew(queryClient, () => {
      // The frame's own queries (switchers, sidebar, first-time banner) go in the same batch as the page's.
      work.push(...frame.filter(missing).map((query) => prefetch(utils, query)));
      const own = page.map((query) => (missing(query) ? prefetch(utils, query) : Promise.resolve()));
      work.push(...own);
      pageData(Promise.allSettled(own));
    });
    void Promise.allSettled(work);
  }, 0);
  return { code, data: Promise.race([settled.then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, FIRST_DATA_WAIT_MS))]) };
}

/** Runs `start` and marks the queries it added to the cache as prefetched (fresh for the page's first mount). */
function markNew(queryClient: QueryClient, start: () => void): void {
  const before = new Set(queryClient.getQueryCache().getAll().map((q) => q.queryHash));
  start();
  for (const query of queryClient.getQueryCache().getAll()) if (!before.has(query.queryHash)) markPrefetched(query.queryHash);
}

import type { QueryClient } from '@tanstack/react-query';
import { createTRPCQueryUtils, type TRPCClient } from '@trpc/react-query';
import type { AppRouter } from '../../../server/routers/_app';
import type { RouteDef } from './route-def';
import { markPrefetched, QUERY_RULES } from './query-client';
import { PAGES } from '../page-registry';
import type { RouteId } from '../routes';

type Utils = ReturnType<typeof createTRPCQueryUtils<AppRouter>>;
type Params = Record<string, string>;

/**
 * The queries a page asks for first, keyed by route id, with the very inputs the page passes (a
 * different input would be a different cache entry and a second request). Only a plain URL is
 * prefetched: filters and page tokens in the query string are the page's to read.
 */
const PAGE_QUERIES: Partial<Record<RouteId, (utils: Utils, p: Params) => Promise<unknown>[]>> = {
  home: (u) => [u.projects.getActive.prefetch(), u.projects.list.prefetch()],
  projects: (u) => [u.projects.list.prefetch(), u.workspaces.list.prefetch()],
  workspaces: (u) => [u.workspaces.list.prefetch()],
  invites: (u) => [u.invites.mine.prefetch()],
  identities: (u, p) => [u.identities.list.prefetch({ projectId: p.project! }), u.identities.schemas.prefetch({ projectId: p.project! })],
  identity: (u, p) => [u.identities.get.prefetch({ projectId: p.project!, identityId: p.identity! }), u.identities.schemas.prefetch({ projectId: p.project! })],
  sessions: (u, p) => [u.sessions.list.prefetch({ projectId: p.project! })],
  session: (u, p) => [u.sessions.get.prefetch({ projectId: p.project!, sessionId: p.session! })],
  identitySchema: (u, p) => [u.schemas.list.prefetch({ projectId: p.project! })],
  emailConfiguration: (u, p) => [u.messaging.emailConfig.prefetch({ projectId: p.project! })],
  smsConfiguration: (u, p) => [u.messaging.smsConfig.prefetch({ projectId: p.project! })],
  emailTemplates: (u, p) => [u.messaging.templates.prefetch({ projectId: p.project! })],
  emailDelivery: (u, p) => [u.messaging.messages.prefetch({ projectId: p.project! })],
  emailMessage: (u, p) => [u.messaging.message.prefetch({ projectId: p.project!, id: p.id! })],
  getStarted: (u, p) => [u.projects.endpoint.prefetch({ projectId: p.project! }, QUERY_RULES.project), u.projects.progress.prefetch({ projectId: p.project! })],
  connect: (u, p) => [u.projects.endpoint.prefetch({ projectId: p.project! }, QUERY_RULES.project)],
  projectHistory: (u, p) => [u.projectHistory.list.prefetch({ projectId: p.project! })],
  getStartedGeneral: (u) => [u.projects.list.prefetch(undefined, QUERY_RULES.projectList), u.projects.getActive.prefetch()],
  support: (u) => [u.system.version.prefetch(), u.projects.getActive.prefetch(), u.projects.list.prefetch()],
  collaborators: (u, p) => [u.members.list.prefetch({ projectId: p.project! }), u.invites.list.prefetch({ projectId: p.project! })],
  projectAdvanced: (u, p) => [
    u.apiKeys.list.prefetch({ projectId: p.project! }),
    u.members.list.prefetch({ projectId: p.project! }),
    u.projects.configuration.prefetch({ projectId: p.project! }),
    ownerCheck(u, p.project!),
  ],
  projectBilling: (u, p) => [
    u.billing.getSubscription.prefetch({ projectId: p.project! }),
    u.billing.invoices.prefetch({ projectId: p.project! }),
    u.billing.plans.prefetch(),
    ownerCheck(u, p.project!),
  ],
  workspace: (u, p) => [u.workspaces.listProjects.prefetch({ workspaceId: p.workspace! })],
  workspaceProjects: (u, p) => [u.workspaces.listProjects.prefetch({ workspaceId: p.workspace! })],
  workspaceMembers: (u, p) => [u.members.list.prefetch({ workspaceId: p.workspace! }), u.invites.list.prefetch({ workspaceId: p.workspace! })],
  workspaceApiKeys: (u, p) => [u.apiKeys.list.prefetch({ workspaceId: p.workspace! }), u.members.list.prefetch({ workspaceId: p.workspace! })],
  workspaceBilling: (u, p) => [u.billing.getSubscription.prefetch({ workspaceId: p.workspace! }), u.billing.invoices.prefetch({ workspaceId: p.workspace! })],
  workspaceSubscription: (u, p) => [u.billing.getSubscription.prefetch({ workspaceId: p.workspace! }), u.billing.plans.prefetch()],
};

/** The owner check of a project's team, key and plan cards (useOwnerAnswer), with its very input. */
function ownerCheck(u: Utils, projectId: string): Promise<unknown> {
  return u.permissions.project.prefetch({ projectId, permissions: ['backoffice.project.owner'] }, { staleTime: 60_000 });
}

/** How long a page opened by URL waits for its first data before it shows with placeholders instead. */
export const FIRST_DATA_WAIT_MS = 1500;

/** Matches a pathname against a registry pattern ('/projects/:project/…'); answers its raw parameters. */
export function matchPattern(pattern: string, pathname: string): Params | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return null;
  const params: Params = {};
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    const value = have[i] ?? '';
    if (segment.startsWith(':')) {
      if (value === '') return null;
      params[segment.slice(1)] = value;
    } else if (segment !== value) return null;
  }
  return params;
}

/**
 * Route-level prefetch for a page opened by URL: the page's code, the session, the project the route
 * is about and the page's first queries all start at once, as the entry script runs, instead of one
 * after another as each component mounts (session → project → page code → page query). They go in two
 * requests sent together: the session alone (the frame waits on it, never on a slow list), then the rest.
 * A workspace is left to its page: a missing one must fail once, not once ahead and once on mount.
 * For a signed-in page, answers a promise settled when the page's own first queries have settled (or FIRST_DATA_WAIT_MS has passed): the page
 * may wait for that, so it appears whole instead of placeholders giving way to content.
 */
export function prefetchRoute(routes: readonly RouteDef[], queryClient: QueryClient, client: TRPCClient<AppRouter>, pathname: string, search: string): Promise<void> | undefined {
  let match: { route: RouteDef; params: Params } | undefined;
  for (const route of routes) {
    const params = matchPattern(route.pattern, pathname);
    if (params) {
      match = { route, params };
      break;
    }
  }
  if (!match || !match.route.available) return undefined;
  const { route, params } = match;
  PAGES[route.page].preload().catch(() => undefined);
  if (!route.requiresAuth) return undefined;
  let pageData: (value: unknown) => void = () => {};
  const settled = new Promise((resolve) => {
    pageData = resolve;
  });

  const utils = createTRPCQueryUtils<AppRouter>({ queryClient, client });
  // The session decides the frame: it goes in a request of its own, so a slow list never holds the frame
  // back. Everything else starts in the same moment, in a second batch (httpBatchLink batches per tick).
  markNew(queryClient, () => void utils.auth.session.prefetch(undefined, QUERY_RULES.session));
  setTimeout(() => {
    const work: Promise<unknown>[] = [];
    markNew(queryClient, () => {
      // The frame's own queries (switchers, first-time banner) go in the same batch as the page's.
      work.push(utils.projects.list.prefetch(undefined, QUERY_RULES.projectList), utils.workspaces.list.prefetch(undefined, QUERY_RULES.workspaceList));
      if (!params['project']) work.push(utils.projects.getActive.prefetch(undefined, QUERY_RULES.activeProject));
      if (params['project']) work.push(utils.projects.get.prefetch({ projectId: params['project'] }, QUERY_RULES.project));
      const own = search === '' || search === '?' ? (PAGE_QUERIES[route.id as RouteId]?.(utils, params) ?? []) : [];
      work.push(...own);
      pageData(Promise.allSettled(own));
    });
    void Promise.allSettled(work);
  }, 0);
  return Promise.race([settled.then(() => undefined), new Promise<void>((resolve) => setTimeout(resolve, FIRST_DATA_WAIT_MS))]);
}

/** Runs `start` and marks the queries it added to the cache as prefetched (fresh for the page's first mount). */
function markNew(queryClient: QueryClient, start: () => void): void {
  const before = new Set(queryClient.getQueryCache().getAll().map((q) => q.queryHash));
  start();
  for (const query of queryClient.getQueryCache().getAll()) if (!before.has(query.queryHash)) markPrefetched(query.queryHash);
}

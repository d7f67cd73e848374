/**
 * The queries a signed-in page opened by URL asks for first, as tRPC paths with the very inputs the page
 * passes (another input would be another cache entry, and a second request). Two readers:
 *   - the server answers them inside the page's HTML (server/first-data.ts), so the page has its data
 *     when its code has run, without a round trip of its own;
 *   - the client prefetches whatever the HTML did not carry (client/src/lib/route-prefetch.ts).
 * Every path is a query of the console's router with an input its schema accepts
 * (server/first-data.unit.test.ts holds that).
 */

import type { TRPCErrorShape } from '@trpc/server';

/** A query by path, with its input when it takes one. */
export type FirstQuery = readonly [path: string, input?: Readonly<Record<string, unknown>>];
/** A route's raw path parameters (`:project` → 'project'). */
export type RouteParams = Readonly<Record<string, string>>;

/** The session: it decides the frame (signed in or not), so it is asked alone and first. */
export const SESSION_QUERY: FirstQuery = ['auth.session'];

/** The frame's own queries on every signed-in page: the switchers, the sidebar's invite count, the project. */
export function frameQueries(params: RouteParams): FirstQuery[] {
  const queries: FirstQuery[] = [['projects.list'], ['workspaces.list'], ['invites.mine']];
  queries.push(params['project'] ? ['projects.get', { projectId: params['project'] }] : ['projects.getActive']);
  return queries;
}

const project = (p: RouteParams) => ({ projectId: p['project']! });
const workspace = (p: RouteParams) => ({ workspaceId: p['workspace']! });
/** The owner check of a project's team, key and plan cards (useOwnerAnswer), with its very input. */
const ownerCheck = (p: RouteParams): FirstQuery => ['permissions.project', { projectId: p['project']!, permissions: ['backoffice.project.owner'] }];
/** The same for a workspace's team and plan pages. */
const workspaceOwnerCheck = (p: RouteParams): FirstQuery => ['permissions.workspace', { workspaceId: p['workspace']!, permissions: ['backoffice.workspace.owner'] }];
/** What a plan allows of a feature (the quota walls shown before the user acts). */
const projectQuota = (p: RouteParams, feature: string): FirstQuery => ['quota.get', { projectId: p['project']!, feature }];
const workspaceQuota = (p: RouteParams, feature: string): FirstQuery => ['quota.get', { workspaceId: p['workspace']!, feature }];
/** The workspace a workspace page is about (its title and breadcrumb). */
const theWorkspace = (p: RouteParams): FirstQuery => ['workspaces.get', workspace(p)];

/** Each page's first queries, by route id (client/src/routes.ts). */
export const PAGE_QUERIES: Readonly<Record<string, (p: RouteParams) => FirstQuery[]>> = {
  home: () => [['projects.getActive'], ['projects.list']],
  projects: () => [['projects.list'], ['workspaces.list']],
  workspaces: () => [['workspaces.list', { pageSize: 25 }]],
  identities: (p) => [['identities.list', project(p)], ['identities.schemas', project(p)], ['schemas.list', project(p)]],
  identity: (p) => [['identities.get', { ...project(p), identityId: p['identity']! }], ['identities.schemas', project(p)]],
  sessions: (p) => [['sessions.list', project(p)]],
  session: (p) => [['sessions.get', { ...project(p), sessionId: p['session']! }]],
  identitySchema: (p) => [['schemas.list', project(p)]],
  emailConfiguration: (p) => [['messaging.emailConfig', project(p)]],
  smsConfiguration: (p) => [['messaging.smsConfig', project(p)]],
  emailTemplates: (p) => [['messaging.templates', project(p)], ['messaging.getTemplate', { ...project(p), template: 'recovery_code', variant: 'valid' }]],
  emailDelivery: (p) => [['messaging.messages', project(p)]],
  emailMessage: (p) => [['messaging.message', { ...project(p), id: p['id']! }]],
  getStarted: (p) => [['projects.endpoint', project(p)], ['projects.progress', project(p)]],
  connect: (p) => [['projects.endpoint', project(p)]],
  projectHistory: (p) => [['projectHistory.list', project(p)]],
  getStartedGeneral: () => [['projects.list'], ['projects.getActive']],
  projectSettings: (p) => [projectQuota(p, 'production_projects'), ['permissions.project', { ...project(p), permissions: ['backoffice.project.delete'] }]],
  collaborators: (p) => [['members.list', project(p)], ['invites.list', project(p)], ownerCheck(p), projectQuota(p, 'collaborator_seats')],
  projectAdvanced: (p) => [['apiKeys.list', project(p)], ['members.list', project(p)], ['projects.configuration', project(p)], ownerCheck(p)],
  projectBilling: (p) => [['billing.getSubscription', project(p)], ['billing.invoices', project(p)], ['billing.plans'], ownerCheck(p)],
  workspace: (p) => [['workspaces.listProjects', workspace(p)], theWorkspace(p)],
  workspaceProjects: (p) => [['workspaces.listProjects', workspace(p)], theWorkspace(p)],
  workspaceMembers: (p) => [['members.list', workspace(p)], ['invites.list', workspace(p)], theWorkspace(p), workspaceOwnerCheck(p), workspaceQuota(p, 'collaborator_seats')],
  workspaceApiKeys: (p) => [['apiKeys.list', workspace(p)], ['members.list', workspace(p)], theWorkspace(p)],
  workspaceBilling: (p) => [['billing.getSubscription', workspace(p)], ['billing.invoices', workspace(p)], theWorkspace(p), workspaceOwnerCheck(p)],
  workspaceSubscription: (p) => [['billing.getSubscription', workspace(p)], ['billing.plans'], theWorkspace(p)],
};

/** Every first query of a page (the frame's, then the page's own), each once. */
export function firstQueries(routeId: string, params: RouteParams): { frame: FirstQuery[]; page: FirstQuery[] } {
  const page = PAGE_QUERIES[routeId]?.(params) ?? [];
  const pageKeys = new Set(page.map(queryId));
  return { frame: frameQueries(params).filter((q) => !pageKeys.has(queryId(q))), page };
}

/** What a tRPC proxy (a caller, the query utilities) holds at a query's dotted path ('projects.list'). */
export function atPath<T>(proxy: object, path: string): T {
  let target: unknown = proxy;
  for (const key of path.split('.')) target = (target as Record<string, unknown>)[key];
  return target as T;
}

/** One string per query (path and input), to tell two apart. */
export function queryId([path, input]: FirstQuery): string {
  return input === undefined ? path : `${path} ${JSON.stringify(input)}`;
}

/** Matches a pathname against a route pattern ('/projects/:project/…'); answers its raw parameters. */
export function matchPattern(pattern: string, pathname: string): Record<string, string> | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const want = pattern.split('/');
  const have = path.split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
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

/** The first of `routes` whose pattern matches `pathname`, with its raw parameters. */
export function matchRoute<R extends { pattern: string }>(routes: readonly R[], pathname: string): { route: R; params: Record<string, string> } | undefined {
  for (const route of routes) {
    const params = matchPattern(route.pattern, pathname);
    if (params) return { route, params };
  }
  return undefined;
}

/** The id of the element of the page's HTML that carries the first answers (JSON). */
export const FIRST_DATA_ELEMENT_ID = 'first-data';

/**
 * A refusal carried in the HTML: the error as tRPC sends it over the wire (its JSON-RPC code, message and
 * data: the tRPC code, the HTTP status, the upstream's reason and error id).
 */
export type FirstError = TRPCErrorShape<Readonly<Record<string, unknown>>>;

/**
 * One answer carried in the HTML: the query and its data, or the refusal the page would have met itself
 * (a 4xx it would not ask again, such as a project billed with its workspace having no subscription).
 */
export type FirstAnswer =
  | { path: string; input?: Readonly<Record<string, unknown>>; data: unknown; error?: undefined }
  | { path: string; input?: Readonly<Record<string, unknown>>; error: FirstError; data?: undefined };

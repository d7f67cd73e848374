import { isProjectRoute, isWorkspaceRoute, type NavGroupId, type RouteDef } from '../lib/route-def';

export type NavScope = 'project' | 'workspace' | 'console';

export interface NavGroup {
  id: NavGroupId | 'soon';
  label: string;
  scope: NavScope;
}

/** The sidebar's groups, in the order they appear. */
export const NAV_GROUPS: readonly NavGroup[] = [
  { id: 'overview', label: 'Overview', scope: 'project' },
  { id: 'identities', label: 'Identities', scope: 'project' },
  { id: 'authentication', label: 'Authentication', scope: 'project' },
  { id: 'federation', label: 'Social & SAML', scope: 'project' },
  { id: 'oauth', label: 'OAuth2', scope: 'project' },
  { id: 'permissions', label: 'Permissions', scope: 'project' },
  { id: 'messaging', label: 'Messaging', scope: 'project' },
  { id: 'account-experience', label: 'Account experience', scope: 'project' },
  { id: 'activity', label: 'Activity & developers', scope: 'project' },
  { id: 'project-settings', label: 'Project settings', scope: 'project' },
  { id: 'workspace', label: 'Workspace', scope: 'workspace' },
  { id: 'console', label: 'Console', scope: 'console' },
];

export function routeScope(route: RouteDef): NavScope {
  if (isProjectRoute(route)) return 'project';
  if (isWorkspaceRoute(route)) return 'workspace';
  return 'console';
}

/** The ids of the route parameters a scope provides ('project' or 'workspace'). */
export type ScopeParams = { project?: string | undefined; workspace?: string | undefined };

export interface NavItem {
  route: RouteDef;
  label: string;
  href: string;
  soon: boolean;
  testId: string;
}

export interface NavSection {
  group: NavGroup;
  items: NavItem[];
}

/** 'projectSettings' → 'nav-project-settings': the sidebar link's test id. */
export function navTestId(routeId: string): string {
  return `nav-${routeId.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/** A route's path from the scope's parameters, or null when it needs one the scope lacks. */
export function hrefFor(route: RouteDef, params: ScopeParams): string | null {
  const names = [...route.pattern.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '');
  const values: Record<string, string> = {};
  for (const name of names) {
    const value = params[name as keyof ScopeParams];
    if (!value) return null;
    values[name] = value;
  }
  return route.build(values as never);
}

function byOrder(a: RouteDef, b: RouteDef): number {
  return (a.nav?.order ?? 0) - (b.nav?.order ?? 0);
}

/** The sidebar sections of one scope, each group's routes in order, with their links. */
export function navSections(routes: readonly RouteDef[], scope: NavScope, params: ScopeParams): NavSection[] {
  return NAV_GROUPS.filter((g) => g.scope === scope).flatMap((group) => {
    const items = routes
      .filter((r) => r.nav?.group === group.id)
      .sort(byOrder)
      .flatMap((route): NavItem[] => {
        const href = hrefFor(route, params);
        return href && route.nav ? [{ route, label: route.nav.label, href, soon: !route.available, testId: navTestId(route.id) }] : [];
      });
    return items.length > 0 ? [{ group, items }] : [];
  });
}

/** The one group that gathers every page not built yet, below what works, collapsed until opened. */
export const SOON_GROUP: NavGroup = { id: 'soon', label: 'Coming soon', scope: 'console' };

export interface SidebarModel {
  /** The scope's (project's or workspace's) groups of built pages. */
  scoped: NavSection[];
  /** The console's own built pages. */
  general: NavSection[];
  /** Every page not built yet, of the scope and the console: one group, or null when there is none. */
  soon: NavSection | null;
}

/**
 * What the sidebar shows: built pages first, in their groups (a group with nothing built is left out),
 * then one "Coming soon" group with the rest.
 */
export function sidebarModel(routes: readonly RouteDef[], scope: NavScope, params: ScopeParams): SidebarModel {
  const scopedAll = scope === 'console' ? [] : navSections(routes, scope, params);
  const generalAll = navSections(routes, 'console', {});
  const built = (sections: NavSection[]) =>
    sections.flatMap((section) => {
      const items = section.items.filter((i) => !i.soon);
      return items.length > 0 ? [{ group: section.group, items }] : [];
    });
  const soonItems = [...scopedAll, ...generalAll].flatMap((s) => s.items.filter((i) => i.soon));
  return { scoped: built(scopedAll), general: built(generalAll), soon: soonItems.length > 0 ? { group: SOON_GROUP, items: soonItems } : null };
}

/** True when `path` is `prefix` or lies under it (segment-wise: '/a/bc' is not under '/a/b'). */
export function isUnder(path: string, prefix: string): boolean {
  return path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`);
}

/**
 * The link to highlight for a location: the longest href the location lies under. A detail page
 * ('/projects/p/identities/i') highlights its list ('/projects/p/identities').
 */
export function activeHref(location: string, hrefs: readonly string[]): string | null {
  let best: string | null = null;
  for (const href of hrefs) {
    if (isUnder(location, href) && (best === null || href.length > best.length)) best = href;
  }
  return best;
}

/** The route and its ancestors through `nav.parent`, outermost first. */
export function routeTrail(route: RouteDef, byId: Readonly<Record<string, RouteDef>>): RouteDef[] {
  const trail: RouteDef[] = [];
  const seen = new Set<string>();
  let current: RouteDef | undefined = route;
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    trail.unshift(current);
    current = current.nav?.parent ? byId[current.nav.parent] : undefined;
  }
  return trail;
}

export interface Crumb {
  label: string;
  href?: string;
}

/**
 * Breadcrumbs: the scope's roots (Projects › project, or Workspaces › workspace), then the page's
 * parents, then the page itself (no link).
 */
export function breadcrumbs(
  route: RouteDef,
  byId: Readonly<Record<string, RouteDef>>,
  scope: { params: ScopeParams; projectName?: string | undefined; workspaceName?: string | undefined },
): Crumb[] {
  const crumbs: Crumb[] = [];
  const kind = routeScope(route);
  const projects = byId['projects'];
  const workspaces = byId['workspaces'];
  const projectHome = byId['getStarted'];
  const workspaceHome = byId['workspace'];
  if (kind === 'project' && projects && projectHome) {
    crumbs.push({ label: projects.layout.breadcrumb ?? 'Projects', href: projects.pattern });
    crumbs.push({ label: scope.projectName ?? 'Project', href: hrefFor(projectHome, scope.params) ?? projects.pattern });
  } else if (kind === 'workspace' && workspaces && workspaceHome) {
    crumbs.push({ label: workspaces.layout.breadcrumb ?? 'Workspaces', href: workspaces.pattern });
    crumbs.push({ label: scope.workspaceName ?? 'Workspace', href: hrefFor(workspaceHome, scope.params) ?? workspaces.pattern });
  }
  for (const step of routeTrail(route, byId)) {
    const label = step.layout.breadcrumb ?? step.nav?.label;
    if (!label) continue;
    const href = step === route ? undefined : hrefFor(step, scope.params);
    crumbs.push(href ? { label, href } : { label });
  }
  const last = crumbs[crumbs.length - 1];
  if (last) delete last.href;
  return crumbs;
}

/** 'Identities · My project · Console': the page, the project or workspace it belongs to, the product. */
export function documentTitle(product: string, ...parts: ReadonlyArray<string | null | undefined>): string {
  const named = parts.filter((p): p is string => Boolean(p) && p !== product);
  return [...named, product].join(' · ');
}

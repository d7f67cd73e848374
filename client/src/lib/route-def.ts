import type { NavIconName } from '../nav/nav-icons';
import type { ComponentType } from 'react';

/** Names of the `:param` segments of a route pattern, e.g. '/projects/:project' → 'project'. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type PathParams<P extends string> = { [K in PathParamNames<P>]: string };

/** Spec §2: the layout options a page may declare. */
export interface LayoutOptions {
  skipFirstTimeExperience?: boolean;
  minimalNavigation?: boolean;
  pageTitle?: string;
  breadcrumb?: string;
  logoLink?: string;
  navbarMenu?: boolean;
  wide?: boolean;
  /** An open page that shows the full console frame (sidebar, menus) to a signed-in user, e.g. /verification. */
  frameWhenSignedIn?: boolean;
}

export type RouteArea =
  | 'general'
  | 'identity'
  | 'project'
  | 'project-settings'
  | 'authentication'
  | 'messaging'
  | 'identities'
  | 'permissions'
  | 'federation'
  | 'oauth'
  | 'account-experience'
  | 'workspace';

/** A page component whose code loads on first render, or earlier through `preload`. */
export type LazyPage = ComponentType<object> & { preload: () => Promise<unknown> };

/** The sidebar groups a route can sit in (spec §2 areas, arranged as the console navigates them). */
export type NavGroupId =
  | 'overview'
  | 'identities'
  | 'authentication'
  | 'federation'
  | 'oauth'
  | 'permissions'
  | 'messaging'
  | 'account-experience'
  | 'activity'
  | 'project-settings'
  | 'workspace'
  | 'console';

/** A sidebar icon by name (nav/nav-icons.ts holds the components, loaded after the first paint). */
export type NavIcon = NavIconName;

/**
 * Navigation metadata: the sidebar, breadcrumbs, palette and document titles all read it.
 * A route with a `group` is a sidebar item; a detail route names its `parent` (a route id) instead,
 * is reached through that page, and highlights it.
 */
export interface NavMeta {
  label: string;
  group?: NavGroupId;
  icon?: NavIcon;
  /** Position inside the group; lower first. */
  order?: number;
  /** Route id of the page this one is reached from (breadcrumbs, highlighting). */
  parent?: string;
  /** One sentence on what the area does, shown while the page is not built yet. */
  description?: string;
  /** Extra words the palette matches on. */
  keywords?: readonly string[];
}

export interface RouteDef<P extends string = string> {
  /** The registry key; set when the registry is assembled. */
  id: string;
  pattern: P;
  area: RouteArea;
  requiresAuth: boolean;
  /** False for routes whose page belongs to a later slice: they show the "not available yet" state. */
  available: boolean;
  layout: LayoutOptions;
  /** The page's id; its code is `PAGES[page]` (page-registry.ts). */
  page: PageId;
  nav?: NavMeta;
  build: (params: PathParams<P>) => string;
}

/** Fills a pattern's parameters, each URL-encoded. */
export function buildPath(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`Missing route parameter ${name} for ${pattern}`);
    return encodeURIComponent(value);
  });
}

/** The pages of the console, by id; `page-registry.ts` maps each to its code. */
export type PageId =
  | 'login'
  | 'registration'
  | 'recovery'
  | 'verification'
  | 'oauth2Consent'
  | 'settings'
  | 'home'
  | 'notFound'
  | 'serverError'
  | 'error'
  | 'soon'
  | 'projects'
  | 'createProject'
  | 'getStarted'
  | 'tour'
  | 'projectSettings'
  | 'workspaces'
  | 'createWorkspace'
  | 'workspace'
  | 'workspaceProjects'
  | 'workspaceSettings'
  | 'invites'
  | 'collaborators'
  | 'projectBilling'
  | 'identities'
  | 'identity'
  | 'sessions'
  | 'relationships'
  | 'permissionRules'
  | 'session'
  | 'identitySchema'
  | 'workspaceBilling'
  | 'workspaceAuditLog'
  | 'workspaceSubscription'
  | 'workspaceMembers'
  | 'workspaceApiKeys'
  | 'projectAdvanced'
  | 'projectHistory'
  | 'projectAuditLog'
  | 'emailConfiguration'
  | 'smsConfiguration'
  | 'emailTemplates'
  | 'emailDelivery'
  | 'activity'
  | 'activityEvents'
  | 'developers'
  | 'developerActions'
  | 'connect'
  | 'support'
  | 'emailMessage'
  | 'oauth2Clients'
  | 'oauth2Endpoints'
  | 'oauth2Lifespans'
  | 'oauth2Strategies'
  | 'oauth2Configure'
  | 'oauth2OpenId'
  | 'oauth2Urls'
  | 'oauth2Cookies'
  | 'authentication'
  | 'authRecovery'
  | 'mfa'
  | 'passwordless'
  | 'accountAdvanced'
  | 'authVerification'
  | 'authSessions'
  | 'organizations'
  | 'organization'
  | 'socialSignin'
  | 'socialProvider'
  | 'saml'
  | 'samlProvider'
  | 'sessionSettings'
  | 'browserRedirects'
  | 'uiSettings'
  | 'limits'
  | 'customDomains'
  | 'accountExperience'
  | 'theming'
  | 'themingCustomize';

export interface RouteInit {
  area: RouteArea;
  requiresAuth?: boolean;
  available?: boolean;
  layout?: LayoutOptions;
  page: PageId;
  nav?: NavMeta;
}

export function defineRoute<P extends string>(pattern: P, init: RouteInit): RouteDef<P> {
  return {
    id: '',
    pattern,
    area: init.area,
    requiresAuth: init.requiresAuth ?? true,
    available: init.available ?? true,
    layout: init.layout ?? {},
    page: init.page,
    ...(init.nav ? { nav: init.nav } : {}),
    build: (params) => buildPath(pattern, params as Record<string, string>),
  };
}

/** True when a route renders inside the project context wrapper. */
export function isProjectRoute(route: RouteDef): boolean {
  return route.pattern.startsWith('/projects/:project');
}

export function isWorkspaceRoute(route: RouteDef): boolean {
  return route.pattern.startsWith('/workspaces/:workspace');
}

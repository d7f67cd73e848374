import type { ComponentType, LazyExoticComponent } from 'react';

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

export type LazyPage = LazyExoticComponent<ComponentType<object>>;

export interface RouteDef<P extends string = string> {
  pattern: P;
  area: RouteArea;
  requiresAuth: boolean;
  /** False for routes whose page belongs to a later slice: they show the "not available yet" state. */
  available: boolean;
  layout: LayoutOptions;
  page: LazyPage;
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

export interface RouteInit {
  area: RouteArea;
  requiresAuth?: boolean;
  available?: boolean;
  layout?: LayoutOptions;
  page: LazyPage;
}

export function defineRoute<P extends string>(pattern: P, init: RouteInit): RouteDef<P> {
  return {
    pattern,
    area: init.area,
    requiresAuth: init.requiresAuth ?? true,
    available: init.available ?? true,
    layout: init.layout ?? {},
    page: init.page,
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

import { defineRoute, type LayoutOptions, type NavMeta, type RouteArea, type RouteDef } from '../lib/route-def';

export const identityLayout = (pageTitle: string): LayoutOptions => ({
  minimalNavigation: true,
  skipFirstTimeExperience: true,
  navbarMenu: false,
  pageTitle,
});

/**
 * A route whose page is not built yet: the sidebar marks it "Soon" and its page says in one
 * sentence what the area will do.
 */
export function soon<P extends string>(pattern: P, area: RouteArea, nav: NavMeta & { description: string }, requiresAuth = true): RouteDef<P> {
  return defineRoute(pattern, {
    area,
    requiresAuth,
    available: false,
    page: 'soon',
    layout: { pageTitle: nav.label, breadcrumb: nav.label },
    nav,
  });
}

export const P = '/projects/:project' as const;
export const W = '/workspaces/:workspace' as const;

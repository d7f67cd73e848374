import type { RouteDef } from './lib/route-def';
import { GENERAL_ROUTES } from './route-areas/general';
import { PROJECT_ROUTES } from './route-areas/project';
import { WORKSPACE_ROUTES } from './route-areas/workspace';

/**
 * Every route of spec §2's table: one registry feeding the router, the sidebar, breadcrumbs, the
 * command palette and document titles. Each area keeps its routes in `route-areas/`; no page code is
 * imported here (pages are named by id, `page-registry.ts`), so any page may link to any route.
 */
const REGISTRY = { ...GENERAL_ROUTES, ...PROJECT_ROUTES, ...WORKSPACE_ROUTES };

for (const [id, route] of Object.entries(REGISTRY)) (route as RouteDef).id = id;

export const ROUTES = REGISTRY;

export type RouteId = keyof typeof ROUTES;

/** Static routes first, so '/projects/create' wins over '/projects/:project/…'. */
export const ROUTE_LIST: readonly RouteDef[] = (Object.values(ROUTES) as RouteDef[])
  .slice()
  .sort((a, b) => Number(a.pattern.includes(':')) - Number(b.pattern.includes(':')));

export const SHELL_ROUTE_ID = '/_app';

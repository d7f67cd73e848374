import { matchRoute, useLocation, useRouter } from 'wouter';
import type { RouteDef } from '../lib/route-def';
import { ROUTE_LIST, ROUTES } from '../routes';

export interface MatchedRoute {
  route: RouteDef;
  params: Record<string, string>;
}

/** The registry entry the current location matches (static patterns first), else the 404 route. */
export function useMatchedRoute(): MatchedRoute {
  const [location] = useLocation();
  const { parser } = useRouter();
  for (const route of ROUTE_LIST) {
    const [matches, params] = matchRoute(parser, route.pattern, location);
    if (matches) return { route, params: (params ?? {}) as Record<string, string> };
  }
  return { route: ROUTES.notFound, params: {} };
}

import { createContext, useContext } from 'react';
import type { RouteDef } from './route-def';

export const RouteContext = createContext<RouteDef | null>(null);

/** The registry entry of the route being rendered. */
export function useCurrentRoute(): RouteDef | null {
  return useContext(RouteContext);
}

import { Route, Switch } from 'wouter';
import { ROUTE_LIST, ROUTES } from '../routes';
import { ConsoleToaster } from './ConsoleToaster';
import { RouteView } from './RouteView';
import { useShellEffects } from './use-shell-effects';

/**
 * The application shell (registered at /_app): it wraps every route, runs the URL rules of spec §2,
 * captures page views and hosts the toaster.
 */
export function AppShell() {
  useShellEffects();
  return (
    <>
      <Switch>
        {ROUTE_LIST.map((route) => (
          <Route key={route.pattern} path={route.pattern}>
            <RouteView route={route} />
          </Route>
        ))}
        <Route>
          <RouteView route={ROUTES.notFound} />
        </Route>
      </Switch>
      <ConsoleToaster />
    </>
  );
}

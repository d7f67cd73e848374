import { useEffect } from 'react';
import { Router } from 'wouter';
import { guardNavigation } from '../lib/navigation-guard';
import { RouteContext } from '../lib/route-context';
import { isProjectRoute } from '../lib/route-def';
import { usePagePreloading } from '../nav/preload';
import { TransitionLocationProvider, useTransitionLocation, useTransitionSearch } from '../nav/transition-location';
import { useMatchedRoute } from '../nav/use-matched-route';
import { loadOverlays } from '../nav/use-overlays';
import { AuthGuard } from './AuthGuard';
import { ConsentBanner } from './ConsentBanner';
import { ConsoleToaster } from './ConsoleToaster';
import { Layout } from './Layout';
import { ProjectContext } from './ProjectContext';
import { useShellEffects } from './use-shell-effects';

/**
 * The application shell (registered at /_app): it wraps every route, runs the URL rules of spec §2,
 * captures page views and hosts the toaster. The frame (top bar, sidebar, breadcrumbs) stays mounted
 * across navigations; only the page inside it changes. Every in-app navigation passes the unsaved-changes
 * guard (`aroundNav`; a Router with its own location hook does not inherit it from an outer one).
 */
export function AppShell() {
  return (
    <TransitionLocationProvider>
      <Router hook={useTransitionLocation} searchHook={useTransitionSearch} aroundNav={guardNavigation}>
        <Shell />
      </Router>
    </TransitionLocationProvider>
  );
}

function Shell() {
  useShellEffects();
  usePagePreloading();
  useEffect(() => {
    loadOverlays().catch(() => undefined);
  }, []);
  const { route, params } = useMatchedRoute();
  const projectId = isProjectRoute(route) ? params['project'] : undefined;
  const scoped = (
    <ProjectContext projectId={projectId}>
      <Layout route={route} params={params} />
    </ProjectContext>
  );
  return (
    <RouteContext.Provider value={route}>
      <AuthGuard required={route.requiresAuth}>{scoped}</AuthGuard>
      <ConsentBanner />
      <ConsoleToaster />
    </RouteContext.Provider>
  );
}

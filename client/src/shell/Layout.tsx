import { useEffect, useRef } from 'react';
import { useLocation } from 'wouter';
import { MESSAGES } from '../../../shared/messages';
import { QUERY_RULES } from '../lib/query-client';
import { isWorkspaceRoute, type RouteDef } from '../lib/route-def';
import { Breadcrumbs } from '../nav/Breadcrumbs';
import { breadcrumbs, documentTitle, routeScope } from '../nav/nav-model';
import { Sidebar } from '../nav/Sidebar';
import { useFocusHeadingOnNavigate } from '../nav/use-focus-heading';
import { ROUTES } from '../routes';
import { trpc } from '../trpc';
import { FirstTimeBanner } from './FirstTimeBanner';
import { useOptionalProject } from './ProjectContext';
import { RouteView } from './RouteView';
import { TopBar } from './TopBar';
import { isAuthenticated, useSession } from './use-session';

const BY_ID = ROUTES as unknown as Record<string, RouteDef>;

function useWorkspaceName(route: RouteDef, workspaceId: string | undefined): string | undefined {
  const workspace = trpc.workspaces.get.useQuery({ workspaceId: workspaceId ?? '' }, { ...QUERY_RULES.workspace, enabled: isWorkspaceRoute(route) && Boolean(workspaceId) });
  return workspace.data?.name ?? undefined;
}

/** Lays a page out according to its route's layout options (spec §2): top bar, sidebar, breadcrumbs. */
export function Layout({ route, params }: { route: RouteDef; params: Record<string, string> }) {
  const session = useSession(route.layout.frameWhenSignedIn === true);
  const framed = route.layout.frameWhenSignedIn === true && isAuthenticated(session.data);
  const layout = framed ? { ...route.layout, minimalNavigation: false, navbarMenu: true } : route.layout;
  const [location] = useLocation();
  const project = useOptionalProject();
  const scope = routeScope(route);
  const scopeParams = { project: params['project'], workspace: params['workspace'] };
  const workspaceName = useWorkspaceName(route, params['workspace']);
  const projectName = scope === 'project' ? project?.current_revision.name : undefined;
  const main = useRef<HTMLElement>(null);
  useFocusHeadingOnNavigate(location, main);

  useEffect(() => {
    document.title = documentTitle(MESSAGES.pageTitle, layout.pageTitle, projectName, scope === 'workspace' ? workspaceName : undefined);
  }, [layout.pageTitle, projectName, workspaceName, scope]);

  const minimal = layout.minimalNavigation === true;
  const signedInFrame = (route.requiresAuth || framed) && !minimal && layout.navbarMenu !== false;
  const crumbs = breadcrumbs(route, BY_ID, { params: scopeParams, projectName: project?.current_revision.name, workspaceName });
  const sidebar = signedInFrame ? <Sidebar route={route} params={scopeParams} /> : null;

  return (
    <div className={minimal ? 'app app-minimal' : 'app'} data-testid="app-shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <TopBar route={route} params={scopeParams} layout={layout} drawer={sidebar} />
      <div className="app-body">
        {sidebar && (
          <aside className="sidebar" aria-label="Sidebar" data-testid="sidebar">
            {sidebar}
          </aside>
        )}
        <main id="main" ref={main} tabIndex={-1} className={layout.wide ? 'main main-wide' : 'main'}>
          {!minimal && crumbs.length > 0 && <Breadcrumbs items={crumbs} />}
          {route.requiresAuth && !minimal && !layout.skipFirstTimeExperience && <FirstTimeBanner />}
          <RouteView />
        </main>
      </div>
    </div>
  );
}

import { useEffect, type ReactNode } from 'react';
import { useParams } from 'wouter';
import { MESSAGES } from '../../../shared/messages';
import { Breadcrumbs, type Crumb } from '../components/Breadcrumbs';
import { Nav } from '../components/Nav';
import { QUERY_RULES } from '../lib/query-client';
import { isProjectRoute, isWorkspaceRoute, type RouteDef } from '../lib/route-def';
import { ROUTES } from '../routes';
import { trpc } from '../trpc';
import { useOptionalProject } from './ProjectContext';
import { FirstTimeBanner } from './FirstTimeBanner';
import { TopBar } from './TopBar';

function useDocumentTitle(pageTitle: string | undefined): void {
  useEffect(() => {
    document.title = pageTitle && pageTitle !== MESSAGES.pageTitle ? `${pageTitle} · ${MESSAGES.pageTitle}` : MESSAGES.pageTitle;
  }, [pageTitle]);
}

function useCrumbs(route: RouteDef): Crumb[] {
  const params = useParams<{ workspace?: string }>();
  const project = useOptionalProject();
  const workspaceId = isWorkspaceRoute(route) ? params.workspace : undefined;
  const workspace = trpc.workspaces.get.useQuery({ workspaceId: workspaceId ?? '' }, { ...QUERY_RULES.workspace, enabled: Boolean(workspaceId) });
  const label = route.layout.breadcrumb;
  if (project) {
    return [
      { label: 'Projects', href: ROUTES.projects.build({}) },
      { label: project.current_revision.name, href: ROUTES.getStarted.build({ project: project.id }) },
      ...(label ? [{ label }] : []),
    ];
  }
  if (workspaceId) {
    return [
      { label: 'Workspaces', href: ROUTES.workspaces.build({}) },
      { label: workspace.data?.name ?? (workspace.isError ? 'Workspace' : '…'), href: ROUTES.workspace.build({ workspace: workspaceId }) },
      ...(label ? [{ label }] : []),
    ];
  }
  return label ? [{ label }] : [];
}

function ProjectNav({ projectId }: { projectId: string }) {
  const p = { project: projectId };
  return (
    <aside className="sidebar">
      <Nav
        label="Project"
        items={[
          { label: 'Get started', href: ROUTES.getStarted.build(p), testId: 'nav-get-started' },
          { label: 'Identities', href: ROUTES.identities.build(p) },
          { label: 'Sessions', href: ROUTES.sessions.build(p) },
          { label: 'Authentication', href: ROUTES.authentication.build(p) },
          { label: 'OAuth2 clients', href: ROUTES.oauth.build(p) },
          { label: 'Permissions', href: ROUTES.relationships.build(p) },
          { label: 'Custom domains', href: ROUTES.customDomains.build(p) },
          { label: 'Settings', href: ROUTES.projectSettings.build(p), testId: 'nav-project-settings' },
        ]}
      />
    </aside>
  );
}

function WorkspaceNav({ workspace }: { workspace: string }) {
  const p = { workspace };
  return (
    <aside className="sidebar">
      <Nav
        label="Workspace"
        items={[
          { label: 'Overview', href: ROUTES.workspace.build(p) },
          { label: 'Projects', href: ROUTES.workspaceProjects.build(p) },
          { label: 'Settings', href: ROUTES.workspaceSettings.build(p), testId: 'nav-workspace-settings' },
          { label: 'Members', href: ROUTES.workspaceMembers.build(p) },
          { label: 'API keys', href: ROUTES.workspaceApiKeys.build(p) },
        ]}
      />
    </aside>
  );
}

/** Lays a page out according to its route's layout options (spec §2). */
export function Layout({ route, children }: { route: RouteDef; children: ReactNode }) {
  const { layout } = route;
  const params = useParams<{ project?: string; workspace?: string }>();
  useDocumentTitle(layout.pageTitle);
  const crumbs = useCrumbs(route);
  const minimal = layout.minimalNavigation === true;
  const sidebar = minimal ? null : isProjectRoute(route) && params.project ? (
    <ProjectNav projectId={params.project} />
  ) : isWorkspaceRoute(route) && params.workspace ? (
    <WorkspaceNav workspace={params.workspace} />
  ) : null;

  return (
    <div className={minimal ? 'app app-minimal' : 'app'} data-testid="app-shell">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <TopBar layout={layout} signedIn={route.requiresAuth} />
      <div className="app-body">
        {sidebar}
        <main id="main" tabIndex={-1} className={layout.wide ? 'main main-wide' : 'main'}>
          {!minimal && <Breadcrumbs items={crumbs} />}
          {route.requiresAuth && !minimal && !layout.skipFirstTimeExperience && <FirstTimeBanner />}
          {children}
        </main>
      </div>
    </div>
  );
}

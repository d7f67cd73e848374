import { Suspense } from 'react';
import { useParams } from 'wouter';
import { GraceSpinner } from '../components/Spinner';
import { RouteContext } from '../lib/route-context';
import { isProjectRoute, type RouteDef } from '../lib/route-def';
import { AuthGuard } from './AuthGuard';
import { Layout } from './Layout';
import { ProjectContext } from './ProjectContext';

/** One route: auth guard if required, project context for project routes, layout, lazy page. */
export function RouteView({ route }: { route: RouteDef }) {
  const params = useParams<{ project?: string }>();
  const Page = route.page;
  const page = (
    <Suspense fallback={<GraceSpinner />}>
      <Page />
    </Suspense>
  );
  const scoped =
    isProjectRoute(route) && params.project ? (
      // Keyed by project: nothing typed for one project (a rename form) carries over to another.
      <ProjectContext key={params.project} projectId={params.project}>
        <Layout route={route}>{page}</Layout>
      </ProjectContext>
    ) : (
      <Layout route={route}>{page}</Layout>
    );
  return <RouteContext.Provider value={route}>{route.requiresAuth ? <AuthGuard>{scoped}</AuthGuard> : scoped}</RouteContext.Provider>;
}

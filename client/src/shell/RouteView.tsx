import { Fragment, Suspense, useEffect, useState } from 'react';
import { Route, Switch } from 'wouter';
import { GraceSpinner, LoadingProjectScreen } from '../components/Spinner';
import { PAGES } from '../page-registry';
import { ROUTE_LIST, ROUTES } from '../routes';
import { FirstDataGate } from './first-data';
import { useOptionalProject, useProjectLoading } from './ProjectContext';

const NotFound = PAGES[ROUTES.notFound.page];

/**
 * 'Loading Project', mounted in a small commit of its own just after the frame's, so its grace
 * period runs from the moment the screen is in the page.
 */
function ProjectLoading() {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  return ready ? <LoadingProjectScreen /> : null;
}

/**
 * The page area: the current route's page, or 'Loading Project' while a project route's project
 * loads. One Suspense boundary above every page, so a navigation (a transition) keeps the previous
 * page on screen until the next one's code is in.
 */
export function RouteView() {
  const projectLoading = useProjectLoading();
  const project = useOptionalProject();
  if (projectLoading) return <ProjectLoading />;
  return (
    <Suspense fallback={<GraceSpinner />}>
      <FirstDataGate />
      {/* Keyed by project: nothing typed for one project (a rename form) carries over to another. */}
      <Fragment key={project?.id ?? ''}>
        <Switch>
          {ROUTE_LIST.map((route) => (
            <Route key={route.pattern} path={route.pattern} component={PAGES[route.page]} />
          ))}
          <Route component={NotFound} />
        </Switch>
      </Fragment>
    </Suspense>
  );
}

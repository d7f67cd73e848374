import { Redirect } from 'wouter';
import { QueryView } from '../../components/QueryView';
import { Skeleton } from '../../components/Skeleton';
import { QUERY_RULES } from '../../lib/query-client';
import { ROUTES } from '../../routes';
import { trpc } from '../../trpc';

/** '/': the active project's home, or the project list when there is none. */
export default function HomePage() {
  const active = trpc.projects.getActive.useQuery(undefined, QUERY_RULES.activeProject);
  const projects = trpc.projects.list.useQuery(undefined, QUERY_RULES.projectList);
  if (active.isPending) return <Skeleton />;
  return (
    <QueryView query={projects} errorTitle="Your projects could not be loaded">
      {(list) => {
        const activeId = active.data?.projectId;
        const known = activeId && list.some((p) => p.id === activeId);
        return <Redirect to={known ? ROUTES.getStarted.build({ project: activeId }) : ROUTES.projects.build({})} replace />;
      }}
    </QueryView>
  );
}

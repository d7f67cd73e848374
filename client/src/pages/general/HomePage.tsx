import { Redirect } from 'wouter';
import { ErrorState } from '../../components/Card';
import { GraceSpinner } from '../../components/Spinner';
import { QUERY_RULES } from '../../lib/query-client';
import { ROUTES } from '../../routes';
import { trpc } from '../../trpc';

/** '/': the active project's home, or the project list when there is none. */
export default function HomePage() {
  const active = trpc.projects.getActive.useQuery(undefined, QUERY_RULES.activeProject);
  const projects = trpc.projects.list.useQuery(undefined, QUERY_RULES.projectList);

  if (active.isPending || projects.isPending) return <GraceSpinner />;
  if (projects.isError) return <ErrorState message={projects.error.message} onRetry={() => void projects.refetch()} />;
  const activeId = active.data?.projectId;
  const known = activeId && projects.data.some((p) => p.id === activeId);
  const target = known ? ROUTES.getStarted.build({ project: activeId }) : ROUTES.projects.build({});
  return <Redirect to={target} replace />;
}

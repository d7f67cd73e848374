import { LinkButton } from '../../components/Button';
import { Card, EmptyState, ErrorState, PageHeader } from '../../components/Card';
import { GraceSpinner } from '../../components/Spinner';
import { ROUTES } from '../../routes';
import { trpc } from '../../trpc';
import { ProjectTable } from '../projects/ProjectTable';
import { useRouteWorkspace } from './use-workspace';

export default function WorkspaceProjectsPage() {
  const { workspaceId, query } = useRouteWorkspace();
  const projects = trpc.workspaces.listProjects.useQuery({ workspaceId });
  const create = (
    <LinkButton href={`${ROUTES.createProject.build({})}?workspace=${encodeURIComponent(workspaceId)}`} data-testid="workspace-create-project">
      Create project
    </LinkButton>
  );

  let body;
  if (query.isError) body = <ErrorState title="This workspace could not be loaded" message={query.error.message} onRetry={() => void query.refetch()} />;
  else if (projects.isPending) body = <GraceSpinner />;
  else if (projects.isError) body = <ErrorState message={projects.error.message} onRetry={() => void projects.refetch()} />;
  else if (projects.data.length === 0) body = <EmptyState title="No projects in this workspace" description="Create a project to get started." action={create} testId="workspace-projects-empty" />;
  else {
    body = (
      <Card>
        <ProjectTable projects={projects.data} testId="workspace-project-table" />
      </Card>
    );
  }

  return (
    <div className="page" data-testid="workspace-projects-page">
      <PageHeader title={query.data ? `${query.data.name}: projects` : 'Projects'} actions={create} />
      {body}
    </div>
  );
}

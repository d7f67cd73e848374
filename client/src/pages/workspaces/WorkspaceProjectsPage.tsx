import { LinkButton } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { ROUTES } from '../../routes';
import { trpc } from '../../trpc';
import { ProjectTable } from '../projects/ProjectTable';
import { WORKSPACE_FALLBACK } from '../../lib/workspace-fallback';
import { useRouteWorkspace } from './use-workspace';

export default function WorkspaceProjectsPage() {
  const { workspaceId, query } = useRouteWorkspace();
  const projects = trpc.workspaces.listProjects.useQuery({ workspaceId }, { enabled: query.isSuccess && query.data !== null });
  const create = (
    <LinkButton href={`${ROUTES.createProject.build({})}?workspace=${encodeURIComponent(workspaceId)}`} data-testid="workspace-create-project">
      Create project
    </LinkButton>
  );

  return (
    <div className="page" data-testid="workspace-projects-page">
      <PageHeader title={query.data ? `${query.data.name}: projects` : 'Projects'} actions={create} />
      <QueryView query={query} skeleton="table" errorTitle="This workspace could not be loaded" isEmpty={(w) => w === null} empty={WORKSPACE_FALLBACK}>
        {() => (
          <QueryView
            query={projects}
            skeleton="table"
            errorTitle="The workspace's projects could not be loaded"
            isEmpty={(list) => list.length === 0}
            empty={{ title: 'No projects in this workspace', description: 'Create a project to get started.', action: create, testId: 'workspace-projects-empty' }}
          >
            {(list) => (
              <Card>
                <ProjectTable projects={list} testId="workspace-project-table" />
              </Card>
            )}
          </QueryView>
        )}
      </QueryView>
    </div>
  );
}

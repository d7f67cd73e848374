import { MESSAGES } from '../../../../shared/messages';
import { LinkButton } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { VerificationBanner } from '../../components/VerificationBanner';
import { QUERY_RULES } from '../../lib/query-client';
import type { ProjectSummary } from '../../lib/types';
import { ROUTES } from '../../routes';
import { usePendingInvites } from '../../shell/use-pending-invites';
import { trpc } from '../../trpc';
import { ProjectTable } from './ProjectTable';

interface Group {
  id: string | null;
  name: string;
  projects: ProjectSummary[];
}

/** Projects grouped by workspace; projects of no (known) workspace go under 'No workspace'. */
export function groupByWorkspace(projects: readonly ProjectSummary[], workspaces: ReadonlyArray<{ id: string | null; name: string }>): Group[] {
  const groups: Group[] = workspaces.flatMap((w) => (w.id ? [{ id: w.id, name: w.name, projects: [] as ProjectSummary[] }] : []));
  const placeholder: Group = { id: null, name: MESSAGES.placeholderWorkspaceName, projects: [] };
  for (const project of projects) {
    const group = groups.find((g) => g.id === project.workspace_id) ?? placeholder;
    group.projects.push(project);
  }
  return [...groups.filter((g) => g.projects.length > 0), ...(placeholder.projects.length ? [placeholder] : [])];
}

/** Invites waiting for an answer, said where a newcomer looks first. */
function InvitesBanner() {
  const pending = usePendingInvites();
  if (pending === 0) return null;
  return (
    <div className="banner" role="status" data-testid="invites-banner">
      <p>{pending === 1 ? 'You have an invite waiting for your answer.' : `You have ${pending} invites waiting for your answer.`}</p>
      <LinkButton href={ROUTES.invites.build({})} variant="secondary" data-testid="invites-banner-link">
        See invites
      </LinkButton>
    </div>
  );
}

export default function ProjectsPage() {
  const projects = trpc.projects.list.useQuery(undefined, QUERY_RULES.projectList);
  const workspaces = trpc.workspaces.list.useQuery(undefined, QUERY_RULES.workspaceList);
  const create = (
    <LinkButton href={ROUTES.createProject.build({})} data-testid="create-project-button">
      Create project
    </LinkButton>
  );

  return (
    <div className="page" data-testid="projects-page">
      <PageHeader title="Projects" description="Every project you can access, by workspace." actions={create} />
      <VerificationBanner />
      <InvitesBanner />
      <QueryView
        query={projects}
        waitFor={[workspaces]}
        skeleton="table"
        errorTitle="Your projects could not be loaded"
        isEmpty={(list) => list.length === 0}
        empty={{ title: 'No projects yet', description: 'Create your first project to manage identities, sessions and more.', action: create, testId: 'projects-empty' }}
      >
        {(list) =>
          groupByWorkspace(list, workspaces.data?.workspaces ?? []).map((g) => (
            <Card key={g.id ?? 'none'} title={g.name} testId="project-group">
              <ProjectTable projects={g.projects} />
            </Card>
          ))
        }
      </QueryView>
    </div>
  );
}

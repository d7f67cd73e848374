import { Link, useLocation } from 'wouter';
import { Switcher } from '../nav/Switcher';
import { analytics, ANALYTICS_EVENTS } from '../lib/analytics';
import { QUERY_RULES } from '../lib/query-client';
import { environmentLabel } from '../pages/projects/environment';
import { ROUTES } from '../routes';
import { trpc } from '../trpc';
import { showError } from './error-toast';
import { useOptionalProject } from './ProjectContext';

function listStatus(query: { isPending: boolean; isError: boolean }): 'loading' | 'error' | 'ready' {
  return query.isPending ? 'loading' : query.isError ? 'error' : 'ready';
}

/** Makes a project the active one, then opens its home (spec §1: 'project switched' is captured). */
export function useSwitchProject() {
  const utils = trpc.useUtils();
  const [, navigate] = useLocation();
  return trpc.projects.setActive.useMutation({
    onSuccess: async ({ projectId }) => {
      // A read of the active project still in flight would otherwise land after this and undo it.
      await utils.projects.getActive.cancel();
      utils.projects.getActive.setData(undefined, { projectId });
      analytics.capture(ANALYTICS_EVENTS.projectSwitched, { project_id: projectId });
      navigate(ROUTES.getStarted.build({ project: projectId }));
    },
    onError: (error) => showError(error, 'Could not switch project'),
  });
}

export function ProjectSwitcher() {
  const current = useOptionalProject();
  const projects = trpc.projects.list.useQuery(undefined, QUERY_RULES.projectList);
  const active = trpc.projects.getActive.useQuery(undefined, { ...QUERY_RULES.activeProject, enabled: !current });
  const utils = trpc.useUtils();
  const setActive = useSwitchProject();

  const selectedId = current?.id ?? active.data?.projectId;
  const items = (projects.data ?? []).map((p) => ({ id: p.id, label: p.name, description: environmentLabel(p.environment) }));
  const currentLabel = current?.current_revision.name ?? items.find((i) => i.id === selectedId)?.label ?? 'Select a project';

  return (
    <Switcher
      label="Project"
      testId="project-switcher"
      currentLabel={currentLabel}
      items={items}
      status={listStatus(projects)}
      selectedId={selectedId}
      onSelect={(projectId) => setActive.mutate({ projectId })}
      onIntent={(projectId) => void utils.projects.get.prefetch({ projectId }, QUERY_RULES.project)}
      footer={
        <Link href={ROUTES.createProject.build({})} className="switcher-link" data-testid="switcher-create-project">
          + Create project
        </Link>
      }
    />
  );
}

export function WorkspaceSwitcher({ workspaceId }: { workspaceId?: string | undefined }) {
  const project = useOptionalProject();
  const workspaces = trpc.workspaces.list.useQuery(undefined, QUERY_RULES.workspaceList);
  const [, navigate] = useLocation();

  const items = (workspaces.data?.workspaces ?? []).flatMap((w) => (w.id ? [{ id: w.id, label: w.name }] : []));
  const selectedId = workspaceId ?? project?.workspace_id ?? undefined;
  const currentLabel = items.find((i) => i.id === selectedId)?.label ?? 'All workspaces';

  return (
    <Switcher
      label="Workspace"
      testId="workspace-switcher"
      currentLabel={currentLabel}
      items={items}
      status={listStatus(workspaces)}
      selectedId={selectedId}
      onSelect={(workspace) => navigate(ROUTES.workspaceProjects.build({ workspace }))}
      footer={
        <div className="switcher-links">
          <Link href={ROUTES.workspaces.build({})} className="switcher-link">
            All workspaces
          </Link>
          <Link href={ROUTES.createWorkspace.build({})} className="switcher-link" data-testid="switcher-create-workspace">
            + Create workspace
          </Link>
        </div>
      }
    />
  );
}

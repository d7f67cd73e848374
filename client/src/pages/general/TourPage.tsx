import { CircleCheck } from 'lucide-react';
import { LinkButton } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { Checklist, ChecklistProgress, type ChecklistStep } from '../../components/Checklist';
import { QueryView } from '../../components/QueryView';
import { Skeleton } from '../../components/Skeleton';
import { Select } from '../../components/TextField';
import { QUERY_RULES } from '../../lib/query-client';
import { useUrlState } from '../../lib/use-url-state';
import { ROUTES } from '../../routes';
import { trpc } from '../../trpc';
import { projectSteps } from '../projects/GetStartedPage';

/**
 * /get-started: the console's guided tour, from a first project to its first signed-in user. Each step is
 * ticked from what really exists (the caller's projects, then projects.progress of the chosen one), so
 * coming back after doing a step elsewhere shows it done. The project is kept in the URL (?project=).
 */
export default function TourPage() {
  const projects = trpc.projects.list.useQuery(undefined, QUERY_RULES.projectList);
  const active = trpc.projects.getActive.useQuery(undefined, QUERY_RULES.activeProject);
  const [{ project: chosen }, setUrl] = useUrlState(['project'] as const);

  const list = projects.data ?? [];
  const known = (id: string | undefined) => (id && list.some((p) => p.id === id) ? id : undefined);
  const projectId = known(chosen) ?? known(active.data?.projectId) ?? list[0]?.id;

  const progress = trpc.projects.progress.useQuery({ projectId: projectId ?? '' }, { enabled: Boolean(projectId) });
  const endpoint = trpc.projects.endpoint.useQuery({ projectId: projectId ?? '' }, { ...QUERY_RULES.project, enabled: Boolean(projectId) });

  const createStep: ChecklistStep = {
    id: 'project',
    title: 'Create a project',
    text: 'A project holds your users, their sign-in settings and your applications.',
    done: projects.isSuccess ? list.length > 0 : undefined,
    target: { route: ROUTES.createProject, href: ROUTES.createProject.build({}) },
    action: 'Create a project',
  };
  const steps: ChecklistStep[] = projectId
    ? [createStep, ...projectSteps(projectId, endpoint.data?.apiUrl, progress.data)]
    : [createStep, ...projectSteps('none', null, undefined).map((s) => ({ ...s, done: false, target: { pending: 'Create a project first' } }))];
  const finished = steps.every((s) => s.done);

  return (
    <div className="page" data-testid="tour-page">
      <PageHeader title="Guided tour" description="From your first project to your first signed-in user. Each step ticks itself off when it is done, wherever you do it." />
      <Card
        title="Your progress"
        testId="tour-card"
        actions={
          list.length > 1 && projectId ? (
            <Select
              label="Project"
              hideLabel
              value={projectId}
              onChange={(e) => setUrl({ project: e.target.value })}
              options={list.map((p) => ({ value: p.id, label: p.name }))}
              data-testid="tour-project"
            />
          ) : undefined
        }
      >
        {projects.isPending ? (
          <Skeleton shape="card" />
        ) : (
          <QueryView query={projects} errorTitle="Your projects could not be loaded">
            {() => (
              <>
                {progress.isError && (
                  <p className="muted" role="status" data-testid="tour-progress-error">
                    The project's progress could not be read; the steps below are not ticked until it can be.
                  </p>
                )}
                <ChecklistProgress steps={steps} label="Tour progress" />
                {finished && (
                  <p className="tour-finished" role="status" data-testid="tour-finished">
                    <CircleCheck aria-hidden="true" size={18} /> All done: your project is ready for your users.
                  </p>
                )}
                <Checklist steps={steps} testId="tour-steps" />
              </>
            )}
          </QueryView>
        )}
      </Card>
      {projectId && (
        <Card title="Go further" testId="tour-further">
          <p className="muted">Connect your application to the project's API, shape your users with an identity schema, and choose how they sign in.</p>
          <LinkButton href={ROUTES.getStarted.build({ project: projectId })} variant="secondary" data-testid="tour-project-link">
            Open the project's Get started page
          </LinkButton>
        </Card>
      )}
    </div>
  );
}

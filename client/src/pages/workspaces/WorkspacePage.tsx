import { planDisplayName } from '../../../../shared/domain/plans';
import { LinkButton } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { QueryView } from '../../components/QueryView';
import { useGrace } from '../../lib/use-grace';
import { ROUTES } from '../../routes';
import { trpc } from '../../trpc';
import { formatDate } from '../../../../shared/domain/format';
import { WORKSPACE_FALLBACK } from '../../lib/workspace-fallback';
import { useRouteWorkspace } from './use-workspace';

/** The count once loaded; a short loading or error text otherwise (the loading text waits the grace period). */
function ProjectCount({ query }: { query: { data?: readonly unknown[] | undefined; isError: boolean; isPending: boolean } }) {
  const waiting = useGrace(query.isPending);
  if (query.data) return <>{query.data.length}</>;
  if (query.isError) return <span className="field-error">Could not be counted</span>;
  return waiting ? <span className="muted">Loading…</span> : null;
}

export default function WorkspacePage() {
  const { workspaceId, query } = useRouteWorkspace();
  const projects = trpc.workspaces.listProjects.useQuery({ workspaceId }, { enabled: query.isSuccess && query.data !== null });
  const p = { workspace: workspaceId };
  return (
    <QueryView query={query} skeleton="details" errorTitle="This workspace could not be loaded" isEmpty={(w) => w === null} empty={WORKSPACE_FALLBACK}>
      {(w) => w && (
        <div className="page" data-testid="workspace-page">
          <PageHeader
            title={w.name}
            actions={
              <LinkButton href={`${ROUTES.createProject.build({})}?workspace=${encodeURIComponent(workspaceId)}`} data-testid="workspace-create-project">
                Create project
              </LinkButton>
            }
          />
          <Card title="Overview" testId="workspace-overview">
            <dl className="details">
              <div className="detail">
                <dt>Workspace ID</dt>
                <dd data-testid="workspace-id">
                  <CopyValue value={workspaceId} label="Copy workspace ID" testId="workspace-id" />
                </dd>
              </div>
              <div className="detail">
                <dt>Plan</dt>
                <dd>{planDisplayName(w.subscription_plan)}</dd>
              </div>
              <div className="detail">
                <dt>Projects</dt>
                <dd data-testid="workspace-project-count">
                  <ProjectCount query={projects} />
                </dd>
              </div>
              <div className="detail">
                <dt>Created</dt>
                <dd>{formatDate(w.created_at)}</dd>
              </div>
            </dl>
            <div className="card-links">
              <LinkButton href={ROUTES.workspaceProjects.build(p)} variant="secondary">
                View projects
              </LinkButton>
              <LinkButton href={ROUTES.workspaceSettings.build(p)} variant="secondary">
                Settings
              </LinkButton>
            </div>
          </Card>
        </div>
      )}
    </QueryView>
  );
}

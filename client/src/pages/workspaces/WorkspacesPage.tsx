import { Link } from 'wouter';
import { LinkButton } from '../../components/Button';
import { Card, EmptyState, ErrorState, PageHeader } from '../../components/Card';
import { GraceSpinner } from '../../components/Spinner';
import { Table } from '../../components/Table';
import { QUERY_RULES } from '../../lib/query-client';
import { ROUTES } from '../../routes';
import { trpc } from '../../trpc';
import { formatDate } from '../projects/environment';

export default function WorkspacesPage() {
  const workspaces = trpc.workspaces.list.useQuery(undefined, QUERY_RULES.workspaceList);
  const create = (
    <LinkButton href={ROUTES.createWorkspace.build({})} data-testid="create-workspace-button">
      Create workspace
    </LinkButton>
  );
  const rows = (workspaces.data?.workspaces ?? []).flatMap((w) => (w.id ? [{ ...w, id: w.id }] : []));

  let body;
  if (workspaces.isPending) body = <GraceSpinner />;
  else if (workspaces.isError) body = <ErrorState message={workspaces.error.message} onRetry={() => void workspaces.refetch()} />;
  else if (rows.length === 0) body = <EmptyState title="No workspaces yet" description="Workspaces group projects and the people who work on them." action={create} testId="workspaces-empty" />;
  else {
    body = (
      <Card>
        <Table
          testId="workspace-table"
          caption="Workspaces"
          rows={rows}
          rowKey={(w) => w.id}
          columns={[
            {
              key: 'name',
              header: 'Name',
              render: (w) => (
                <Link href={ROUTES.workspace.build({ workspace: w.id })} className="link" data-testid="workspace-link">
                  {w.name}
                </Link>
              ),
            },
            { key: 'plan', header: 'Plan', render: (w) => w.subscription_plan ?? 'Develop' },
            { key: 'created', header: 'Created', render: (w) => formatDate(w.created_at) },
          ]}
        />
      </Card>
    );
  }

  return (
    <div className="page" data-testid="workspaces-page">
      <PageHeader title="Workspaces" actions={create} />
      {body}
    </div>
  );
}

import { planDisplayName } from '../../../../shared/domain/plans';
import { keepPreviousData } from '@tanstack/react-query';
import { Link } from 'wouter';
import { LinkButton } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { CopyValue } from '../../components/CopyButton';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { Truncate } from '../../components/Truncate';
import { QUERY_RULES } from '../../lib/query-client';
import { ROUTES } from '../../routes';
import { usePagedList } from '../../lib/use-paged-list';
import { trpc } from '../../trpc';
import { formatDate } from '../../../../shared/domain/format';

/** Workspaces per page of the list; the rest are a "Next" away. */
export const WORKSPACE_PAGE_SIZE = 25;

export default function WorkspacesPage() {
  const { pageToken, pager } = usePagedList();
  const workspaces = trpc.workspaces.list.useQuery(
    { pageSize: WORKSPACE_PAGE_SIZE, ...(pageToken ? { pageToken } : {}) },
    { ...QUERY_RULES.workspaceList, placeholderData: keepPreviousData },
  );
  const create = (
    <LinkButton href={ROUTES.createWorkspace.build({})} data-testid="create-workspace-button">
      Create workspace
    </LinkButton>
  );
  const fullOnly = (list: NonNullable<typeof workspaces.data>) => list.workspaces.flatMap((w) => (w.id ? [{ ...w, id: w.id }] : []));

  return (
    <div className="page" data-testid="workspaces-page">
      <PageHeader title="Workspaces" actions={create} />
      <QueryView
        query={workspaces}
        skeleton="table"
        errorTitle="Your workspaces could not be loaded"
        isEmpty={(list) => fullOnly(list).length === 0}
        empty={{ title: 'No workspaces yet', description: 'Workspaces group projects and the people who work on them.', action: create, testId: 'workspaces-empty' }}
      >
        {(list) => (
          <Card>
            <Table
              testId="workspace-table"
              caption="Workspaces"
              rows={fullOnly(list)}
              rowKey={(w) => w.id}
              columns={[
                {
                  key: 'name',
                  header: 'Name',
                  className: 'col-name',
                  render: (w) => (
                    <Link href={ROUTES.workspace.build({ workspace: w.id })} className="link" data-testid="workspace-link">
                      <Truncate text={w.name} focusable={false} />
                    </Link>
                  ),
                },
                { key: 'id', header: 'ID', className: 'col-code', render: (w) => <CopyValue value={w.id} label={`Copy the ID of ${w.name}`} /> },
                { key: 'plan', header: 'Plan', render: (w) => planDisplayName(w.subscription_plan) },
                { key: 'created', header: 'Created', render: (w) => formatDate(w.created_at) },
              ]}
            />
            {pager({ label: 'Workspace pages', nextToken: list.has_next_page ? list.next_page_token : null, busy: workspaces.isPlaceholderData, testId: 'workspaces-pager' })}
          </Card>
        )}
      </QueryView>
    </div>
  );
}

import { useState } from 'react';
import toast from 'react-hot-toast';
import { formatDateTime } from '../../../../shared/domain/format';
import type { ProjectRevisionSummary } from '../../../../shared/schemas/project-history';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ChangeList } from '../../components/ChangeList';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { Pager } from '../../components/Pager';
import { QueryView } from '../../components/QueryView';
import { Table } from '../../components/Table';
import { errorText } from '../../lib/errors';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { ConfigFileCard } from './ConfigFileCard';
import { ProjectFileCard } from './ProjectFileCard';

const authorOf = (r: ProjectRevisionSummary) => r.author_email ?? (r.created_by ? 'A former member' : 'Unknown');

function Changes({ projectId, revision }: { projectId: string; revision: ProjectRevisionSummary }) {
  const detail = trpc.projectHistory.get.useQuery({ projectId, revisionId: revision.id });
  return (
    <QueryView
      query={detail}
      skeleton="table"
      errorTitle="The changes could not be loaded"
      isEmpty={(d) => d.changes.length === 0}
      empty={{ title: 'No visible change', description: 'This version changed nothing shown here (a secret such as the SMTP password changes without showing its value).', testId: 'history-changes-empty' }}
    >
      {(d) => (
        <>
          <ChangeList changes={d.changes} testId="history-changes" itemTestId="history-change" />
          {d.truncated && <p className="muted">Only the first {d.changes.length} changes are shown.</p>}
        </>
      )}
    </QueryView>
  );
}

/**
 * /projects/{project}/settings/history: every version of the project's configuration, who made it and when,
 * what each changed, and restoring an earlier one as a new version (refused if the configuration changed
 * since the page was loaded).
 */
export default function HistoryPage() {
  const project = useProject();
  const projectId = project.id;
  const [tokens, setTokens] = useState<string[]>([]);
  const pageToken = tokens.at(-1);
  const list = trpc.projectHistory.list.useQuery({ projectId, ...(pageToken ? { pageToken } : {}) }, { placeholderData: (previous) => previous });
  const [viewing, setViewing] = useState<ProjectRevisionSummary | null>(null);
  const [restoring, setRestoring] = useState<ProjectRevisionSummary | null>(null);
  const restore = trpc.projectHistory.restore.useMutation({
    onSuccess: () => {
      toast.success('The configuration was restored as a new version.');
      setRestoring(null);
      setTokens([]);
    },
  });
  const currentRevisionId = typeof project.current_revision.id === 'string' ? project.current_revision.id : undefined;

  return (
    <div className="page" data-testid="history-page">
      <PageHeader title="Configuration history" description="Every change to this project's configuration, who made it and when. Restore an earlier version as a new one; the history keeps every version." />
      <Card title="Versions" testId="history-card">
        <QueryView query={list} skeleton="table" errorTitle="The history could not be loaded">
          {(answer) => (
            <>
              <Table
                caption="Configuration versions, newest first"
                testId="history-table"
                rows={answer.revisions}
                rowKey={(r) => r.id}
                columns={[
                  { key: 'at', header: 'When', render: (r) => <span data-testid="history-when">{formatDateTime(r.created_at)}</span> },
                  { key: 'author', header: 'By', className: 'col-name', render: (r) => authorOf(r) },
                  { key: 'name', header: 'Project name', className: 'col-name', render: (r) => r.name },
                  {
                    key: 'actions',
                    header: 'Actions',
                    render: (r) => (
                      <span className="row-actions">
                        {r.current && (
                          <span className="badge badge-prod" data-testid="history-current">
                            Current
                          </span>
                        )}
                        <Button variant="ghost" onClick={() => setViewing(r)} data-testid="history-show">
                          Changes<span className="sr-only"> of {formatDateTime(r.created_at)}</span>
                        </Button>
                        {!r.current && (
                          <Button variant="secondary" onClick={() => (restore.reset(), setRestoring(r))} data-testid="history-restore">
                            Restore<span className="sr-only"> the version of {formatDateTime(r.created_at)}</span>
                          </Button>
                        )}
                      </span>
                    ),
                  },
                ]}
              />
              <Pager
                label="Configuration history pages"
                hasPrevious={tokens.length > 0}
                nextToken={answer.nextPageToken}
                onPrevious={() => setTokens(tokens.slice(0, -1))}
                onNext={(token) => setTokens([...tokens, token])}
                busy={list.isFetching}
                previousText="Newer"
                nextText="Older"
                testId="history-pager"
              />
            </>
          )}
        </QueryView>
      </Card>
      <ConfigFileCard projectId={projectId} slug={project.slug} currentRevisionId={currentRevisionId} />
      <ProjectFileCard projectId={projectId} slug={project.slug} currentRevisionId={currentRevisionId} />
      <Dialog
        open={viewing !== null}
        onClose={() => setViewing(null)}
        title={viewing ? `Changes of ${formatDateTime(viewing.created_at)}` : 'Changes'}
        description={viewing ? `By ${authorOf(viewing)}, compared with the version before it.` : undefined}
        variant="drawer"
        testId="history-changes-dialog"
        footer={<Button onClick={() => setViewing(null)}>Close</Button>}
      >
        {viewing && <Changes projectId={projectId} revision={viewing} />}
      </Dialog>
      <ConfirmDialog
        open={restoring !== null}
        title="Restore this version?"
        message={
          restoring
            ? `The configuration of ${formatDateTime(restoring.created_at)} becomes a new version and takes effect at once. The current configuration stays in the history.`
            : ''
        }
        confirmLabel="Restore"
        variant="primary"
        busy={restore.isPending}
        error={restore.error ? (errorText(restore.error) ?? 'The version could not be restored.') : undefined}
        onConfirm={() => restoring && currentRevisionId && restore.mutate({ projectId, revisionId: restoring.id, currentRevisionId })}
        onClose={() => setRestoring(null)}
        testId="history-restore-dialog"
      />
    </div>
  );
}

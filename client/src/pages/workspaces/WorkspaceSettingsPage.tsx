import toast from 'react-hot-toast';
import { workspaceNameSchema } from '../../../../shared/schemas/workspace';
import { Card, ErrorState, PageHeader } from '../../components/Card';
import { GraceSpinner } from '../../components/Spinner';
import { RenameForm } from '../../components/RenameForm';
import { nameErrorMessage } from '../../lib/name-field';
import { showError } from '../../shell/error-toast';
import { trpc } from '../../trpc';
import { useRouteWorkspace } from './use-workspace';

/** The rename form, created once the workspace has loaded; what the user types is never overwritten. */
function RenameWorkspaceForm({ workspaceId, savedName }: { workspaceId: string; savedName: string }) {
  const utils = trpc.useUtils();
  const update = trpc.workspaces.update.useMutation({
    onSuccess: async (workspace) => {
      utils.workspaces.get.setData({ workspaceId }, workspace);
      await utils.workspaces.list.invalidate();
      toast.success('Workspace renamed');
    },
    onError: (err) => showError(err, 'Could not rename the workspace'),
  });
  return (
    <RenameForm
      label="Workspace name"
      savedName={savedName}
      schema={workspaceNameSchema}
      saving={update.isPending}
      saveError={update.error ? nameErrorMessage(update.error) : undefined}
      onSave={(name) => update.mutate({ workspaceId, name })}
      testId="rename-workspace"
    />
  );
}

export default function WorkspaceSettingsPage() {
  const { workspaceId, query } = useRouteWorkspace();
  if (query.isPending) return <GraceSpinner />;
  if (query.isError) return <ErrorState title="This workspace could not be loaded" message={query.error.message} onRetry={() => void query.refetch()} />;
  return (
    <div className="page page-narrow" data-testid="workspace-settings-page">
      <PageHeader title="Workspace settings" />
      <Card title="Name">
        <RenameWorkspaceForm key={workspaceId} workspaceId={workspaceId} savedName={query.data.name} />
      </Card>
    </div>
  );
}

import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { workspaceNameSchema } from '../../../../shared/schemas/workspace';
import { Button } from '../../components/Button';
import { Card, ErrorState, PageHeader } from '../../components/Card';
import { GraceSpinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { isNameChanged, nameErrorMessage } from '../../lib/name-field';
import { useUnsavedChangesWarning } from '../../lib/use-unsaved-changes';
import { showError } from '../../shell/error-toast';
import { trpc } from '../../trpc';
import { useRouteWorkspace } from './use-workspace';

/** The rename form, created once the workspace has loaded; what the user types is never overwritten. */
function RenameWorkspaceForm({ workspaceId, savedName }: { workspaceId: string; savedName: string }) {
  const [name, setName] = useState(savedName);
  const [error, setError] = useState<string>();
  const utils = trpc.useUtils();
  const changed = isNameChanged(name, savedName);
  useUnsavedChangesWarning(changed);

  const update = trpc.workspaces.update.useMutation({
    onSuccess: async (workspace) => {
      utils.workspaces.get.setData({ workspace: workspaceId }, workspace);
      await utils.workspaces.list.invalidate();
      toast.success('Workspace renamed');
    },
    onError: (err) => {
      setError(nameErrorMessage(err));
      showError(err, 'Could not rename the workspace');
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = workspaceNameSchema.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    update.mutate({ workspace: workspaceId, name: parsed.data });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="form">
      <TextField label="Workspace name" name="name" value={name} onChange={(e) => setName(e.target.value)} error={error} autoComplete="off" data-testid="rename-workspace-input" />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={update.isPending} disabled={!changed} data-testid="rename-workspace-submit">
          Save name
        </Button>
      </div>
    </form>
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

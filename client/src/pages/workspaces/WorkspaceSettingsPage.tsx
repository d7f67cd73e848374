import { useEffect, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { workspaceNameSchema } from '../../../../shared/schemas/workspace';
import { Button } from '../../components/Button';
import { Card, ErrorState, PageHeader } from '../../components/Card';
import { GraceSpinner } from '../../components/Spinner';
import { TextField } from '../../components/TextField';
import { showError } from '../../shell/error-toast';
import { trpc } from '../../trpc';
import { useRouteWorkspace } from './use-workspace';

export default function WorkspaceSettingsPage() {
  const { workspaceId, query } = useRouteWorkspace();
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const utils = trpc.useUtils();
  const loadedName = query.data?.name;
  useEffect(() => {
    if (loadedName !== undefined) setName(loadedName);
  }, [loadedName]);

  const update = trpc.workspaces.update.useMutation({
    onSuccess: async (workspace) => {
      utils.workspaces.get.setData({ workspace: workspaceId }, workspace);
      await utils.workspaces.list.invalidate();
      toast.success('Workspace renamed');
    },
    onError: (err) => showError(err, 'Could not rename the workspace'),
  });

  if (query.isPending) return <GraceSpinner />;
  if (query.isError) return <ErrorState title="This workspace could not be loaded" message={query.error.message} onRetry={() => void query.refetch()} />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = workspaceNameSchema.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    update.mutate({ workspace: workspaceId, name: parsed.data });
  };

  return (
    <div className="page page-narrow" data-testid="workspace-settings-page">
      <PageHeader title="Workspace settings" />
      <Card title="Name">
        <form onSubmit={onSubmit} noValidate className="form">
          <TextField label="Workspace name" name="name" value={name} onChange={(e) => setName(e.target.value)} error={error} data-testid="rename-workspace-input" />
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={update.isPending} disabled={name.trim() === query.data.name} data-testid="rename-workspace-submit">
              Save name
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}

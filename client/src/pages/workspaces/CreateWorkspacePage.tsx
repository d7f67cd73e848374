import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { workspaceNameSchema } from '../../../../shared/schemas/workspace';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { TextField } from '../../components/TextField';
import { analytics, ANALYTICS_EVENTS } from '../../lib/analytics';
import { nameErrorMessage } from '../../lib/name-field';
import { ROUTES } from '../../routes';
import { showError } from '../../shell/error-toast';
import { trpc } from '../../trpc';

export default function CreateWorkspacePage() {
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const create = trpc.workspaces.create.useMutation({
    onSuccess: async (workspace) => {
      analytics.capture(ANALYTICS_EVENTS.workspaceCreated, { workspace_id: workspace.id });
      await utils.workspaces.list.invalidate();
      navigate(workspace.id ? ROUTES.workspace.build({ workspace: workspace.id }) : ROUTES.workspaces.build({}));
    },
    // The typed name stays; the reason shows under the field and in a toast.
    onError: (err) => {
      setError(nameErrorMessage(err));
      showError(err, 'Could not create the workspace');
    },
  });

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = workspaceNameSchema.safeParse(name);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message);
    setError(undefined);
    create.mutate({ name: parsed.data });
  };

  return (
    <div className="page page-narrow" data-testid="create-workspace-page">
      <PageHeader title="Create a workspace" description="A workspace groups projects, members and billing." />
      <Card>
        <form onSubmit={onSubmit} noValidate className="form">
          <TextField label="Workspace name" name="name" value={name} onChange={(e) => setName(e.target.value)} error={error} autoFocus data-testid="workspace-name-input" />
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={create.isPending} data-testid="create-workspace-submit">
              Create workspace
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}

import { useLocation } from 'wouter';
import { createWorkspaceInput } from '../../../../shared/schemas/workspace';
import { Card, PageHeader } from '../../components/Card';
import { SettingsForm } from '../../components/SettingsForm';
import { TextField } from '../../components/TextField';
import { analytics, ANALYTICS_EVENTS } from '../../lib/analytics';
import { ROUTES } from '../../routes';
import { trpc } from '../../trpc';

export default function CreateWorkspacePage() {
  const [, navigate] = useLocation();
  const create = trpc.workspaces.create.useMutation();
  return (
    <div className="page page-narrow" data-testid="create-workspace-page">
      <PageHeader title="Create a workspace" description="A workspace groups projects, members and billing." />
      <Card>
        <SettingsForm
          kind="create"
          schema={createWorkspaceInput}
          values={{ name: '' }}
          testId="create-workspace"
          submitLabel="Create workspace"
          errorContext="Could not create the workspace"
          onSave={(_, all) => create.mutateAsync(all)}
          onSaved={(workspace) => {
            analytics.capture(ANALYTICS_EVENTS.workspaceCreated, { workspace_id: workspace.id });
            navigate(workspace.id ? ROUTES.workspace.build({ workspace: workspace.id }) : ROUTES.workspaces.build({}));
          }}
        >
          {(form) => <TextField label="Workspace name" autoFocus autoComplete="off" error={form.formState.errors.name?.message} data-testid="workspace-name-input" {...form.register('name')} />}
        </SettingsForm>
      </Card>
    </div>
  );
}

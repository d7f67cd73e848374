import toast from 'react-hot-toast';
import { z } from 'zod';
import { updateWorkspaceInput } from '../../../../shared/schemas/workspace';
import { Card, PageHeader } from '../../components/Card';
import { QueryView } from '../../components/QueryView';
import { SettingsForm } from '../../components/SettingsForm';
import { TextField } from '../../components/TextField';
import { trpc } from '../../trpc';
import { WORKSPACE_FALLBACK } from '../../lib/workspace-fallback';
import { useRouteWorkspace } from './use-workspace';

/** The workspace settings form: the field schema of workspaces.update. */
const workspaceSettingsSchema = z.object({ name: updateWorkspaceInput.shape.name });

/** Created once the workspace has loaded; what the user types is never overwritten by a refetch. */
function WorkspaceSettingsForm({ workspaceId, name }: { workspaceId: string; name: string }) {
  const utils = trpc.useUtils();
  const update = trpc.workspaces.update.useMutation({ onSuccess: (workspace) => utils.workspaces.get.setData({ workspaceId }, workspace) });
  return (
    <SettingsForm
      schema={workspaceSettingsSchema}
      values={{ name }}
      testId="workspace-settings"
      submitLabel="Save changes"
      errorContext="Could not rename the workspace"
      onSave={(changes) => update.mutateAsync({ workspaceId, name: changes.name ?? name })}
      onSaved={() => toast.success('Workspace renamed')}
    >
      {(form) => <TextField label="Workspace name" autoComplete="off" error={form.formState.errors.name?.message} data-testid="workspace-name-input" {...form.register('name')} />}
    </SettingsForm>
  );
}

export default function WorkspaceSettingsPage() {
  const { workspaceId, query } = useRouteWorkspace();
  return (
    <div className="page page-narrow" data-testid="workspace-settings-page">
      <PageHeader title="Workspace settings" />
      <QueryView query={query} skeleton="form" errorTitle="This workspace could not be loaded" isEmpty={(w) => w === null} empty={WORKSPACE_FALLBACK}>
        {(workspace) => workspace && (
          <Card title="General">
            <WorkspaceSettingsForm key={workspaceId} workspaceId={workspaceId} name={workspace.name} />
          </Card>
        )}
      </QueryView>
    </div>
  );
}

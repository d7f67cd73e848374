import { useState } from 'react';
import toast from 'react-hot-toast';
import { useLocation } from 'wouter';
import { z } from 'zod';
import { updateWorkspaceInput } from '../../../../shared/schemas/workspace';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { Tooltip } from '../../components/Tooltip';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { useIsOwner } from '../team/use-owner';
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

/** Leaving: any member; the control plane refuses the last owner with a sentence saying what to do first. */
function LeaveWorkspace({ workspaceId, name }: { workspaceId: string; name: string }) {
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const leave = trpc.workspaces.leave.useMutation({
    onSuccess: () => {
      toast.success(`You left ${name}`);
      navigate(ROUTES.workspaces.build({}));
    },
  });
  return (
    <Card title="Leave workspace" testId="leave-workspace-card">
      <p>You lose access to this workspace and to its projects. An owner can invite you again.</p>
      <Button onClick={() => setOpen(true)} data-testid="leave-workspace-button">
        Leave workspace
      </Button>
      <ConfirmDialog
        open={open}
        title={`Leave ${name}?`}
        message="You lose access to this workspace and its projects at once."
        confirmLabel="Leave workspace"
        busy={leave.isPending}
        error={leave.error ? (errorText(leave.error) ?? 'Could not leave the workspace.') : undefined}
        onConfirm={() => leave.mutate({ workspaceId })}
        onClose={() => (setOpen(false), leave.reset())}
        testId="leave-workspace-dialog"
      />
    </Card>
  );
}

const DELETE_OWNER_ONLY = 'Only an owner can delete this workspace.';

/** Deleting: owners only, typing the name; the control plane refuses while projects are in it. */
function DeleteWorkspace({ workspaceId, name, isOwner }: { workspaceId: string; name: string; isOwner: boolean }) {
  const [, navigate] = useLocation();
  const [open, setOpen] = useState(false);
  const remove = trpc.workspaces.delete.useMutation({
    onSuccess: () => {
      toast.success(`Workspace ${name} deleted`);
      navigate(ROUTES.workspaces.build({}));
    },
  });
  const button = (
    <Button variant="danger" disabled={!isOwner} onClick={() => setOpen(true)} data-testid="delete-workspace-button">
      Delete workspace
    </Button>
  );
  return (
    <Card title="Delete workspace" testId="delete-workspace-card">
      <p>A workspace can be deleted once it holds no projects: move them to another workspace or delete them first.</p>
      {!isOwner && (
        <p className="banner" role="status" data-testid="delete-workspace-owner-note">
          {DELETE_OWNER_ONLY}
        </p>
      )}
      {isOwner ? button : <Tooltip content={DELETE_OWNER_ONLY}>{button}</Tooltip>}
      <ConfirmDialog
        open={open}
        title={`Delete ${name}?`}
        message="Its members, invites, API keys and subscription are removed with it. This cannot be undone."
        confirmText={name}
        confirmLabel="Delete workspace"
        busy={remove.isPending}
        error={remove.error ? (errorText(remove.error) ?? 'Could not delete the workspace.') : undefined}
        onConfirm={(typed) => remove.mutate({ workspaceId, confirmName: typed })}
        onClose={() => (setOpen(false), remove.reset())}
        testId="delete-workspace-dialog"
      />
    </Card>
  );
}

export default function WorkspaceSettingsPage() {
  const { workspaceId, query } = useRouteWorkspace();
  const isOwner = useIsOwner({ workspaceId });
  return (
    <div className="page page-narrow" data-testid="workspace-settings-page">
      <PageHeader title="Workspace settings" />
      <QueryView query={query} skeleton="form" errorTitle="This workspace could not be loaded" isEmpty={(w) => w === null} empty={WORKSPACE_FALLBACK}>
        {(workspace) =>
          workspace && (
            <>
              <Card title="General">
                {!isOwner && (
                  <p className="banner" role="status" data-testid="rename-owner-note">
                    Only an owner can rename this workspace.
                  </p>
                )}
                <WorkspaceSettingsForm key={workspaceId} workspaceId={workspaceId} name={workspace.name} />
              </Card>
              <LeaveWorkspace workspaceId={workspaceId} name={workspace.name} />
              <DeleteWorkspace workspaceId={workspaceId} name={workspace.name} isOwner={isOwner} />
            </>
        )}
      </QueryView>
    </div>
  );
}

import { useState } from 'react';
import toast from 'react-hot-toast';
import { useLocation } from 'wouter';
import { projectNameSchema } from '../../../../shared/schemas/project';
import type { Environment } from '../../../../shared/schemas/common';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { RenameForm } from '../../components/RenameForm';
import { Select } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { nameErrorMessage } from '../../lib/name-field';
import { ROUTES } from '../../routes';
import { showError } from '../../shell/error-toast';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { ENVIRONMENT_OPTIONS } from './environment';

export default function ProjectSettingsPage() {
  const project = useProject();
  const projectId = project.id;
  const currentName = project.current_revision.name;
  const [deleting, setDeleting] = useState(false);
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();

  const refresh = async (updated: typeof project) => {
    utils.projects.get.setData({ projectId }, updated);
    await utils.projects.list.invalidate();
    void utils.workspaces.listProjects.invalidate();
  };

  const rename = trpc.projects.update.useMutation({
    onSuccess: async (updated) => {
      await refresh(updated);
      toast.success('Project renamed');
    },
    // The typed name stays in the field, with the reason under it (RenameForm's saveError).
    onError: (error) => showError(error, 'Could not rename the project'),
  });
  const setEnvironment = trpc.projects.setEnvironment.useMutation({
    onSuccess: async (updated) => {
      await refresh(updated);
      toast.success('Environment updated');
    },
    onError: (error) => showError(error, 'Could not change the environment'),
  });
  const remove = trpc.projects.delete.useMutation({
    onSuccess: async () => {
      setDeleting(false);
      navigate(ROUTES.projects.build({}));
      utils.projects.get.reset({ projectId });
      await Promise.all([utils.projects.list.invalidate(), utils.projects.getActive.invalidate(), utils.workspaces.listProjects.invalidate()]);
      toast.success('Project deleted');
    },
  });

  return (
    <div className="page page-narrow" data-testid="project-settings-page">
      <PageHeader title="Project settings" description={`Settings of ${currentName}.`} />
      <Card title="Name">
        <RenameForm
          label="Project name"
          savedName={currentName}
          schema={projectNameSchema}
          saving={rename.isPending}
          saveError={rename.error ? nameErrorMessage(rename.error) : undefined}
          onSave={(name) => rename.mutate({ projectId, name })}
          testId="rename-project"
        />
      </Card>
      <Card title="Environment">
        <Select
          label="Environment"
          value={project.environment}
          options={ENVIRONMENT_OPTIONS}
          disabled={setEnvironment.isPending}
          onChange={(e) => setEnvironment.mutate({ projectId, environment: e.target.value as Environment })}
          data-testid="project-environment-setting"
        />
      </Card>
      <Card title="Delete project" testId="danger-zone">
        <p className="card-text">Deleting a project removes its identities, sessions and configuration. This cannot be undone.</p>
        <Button variant="danger" onClick={() => setDeleting(true)} data-testid="delete-project-button">
          Delete project
        </Button>
      </Card>
      <ConfirmDialog
        open={deleting}
        title="Delete this project?"
        message={
          <p>
            This permanently deletes <strong>{currentName}</strong>.
          </p>
        }
        confirmText={currentName}
        confirmLabel="Delete project"
        busy={remove.isPending}
        error={remove.error ? errorText(remove.error) : undefined}
        onConfirm={(confirmName) => remove.mutate({ projectId, confirmName })}
        onClose={() => {
          setDeleting(false);
          remove.reset();
        }}
        testId="delete-project-dialog"
      />
    </div>
  );
}

import { useState } from 'react';
import toast from 'react-hot-toast';
import { useLocation } from 'wouter';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ConfirmDialog } from '../../components/Dialog';
import { SettingsForm } from '../../components/SettingsForm';
import { Select, TextField } from '../../components/TextField';
import { Tooltip } from '../../components/Tooltip';
import { Truncate } from '../../components/Truncate';
import { quotaFailure, UpgradePrompt } from '../../components/UpgradePrompt';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { ENVIRONMENT_OPTIONS } from './environment';
import { MoveProjectCard } from './MoveProjectCard';
import {
  environmentConfirmation,
  PROJECT_CONFLICT_MESSAGE,
  projectSavedMessage,
  projectSettingsSchema,
  type ProjectSettingsValues,
} from './project-settings-form';

function GeneralSettings() {
  const project = useProject();
  const projectId = project.id;
  const utils = trpc.useUtils();
  const rename = trpc.projects.update.useMutation({ onSuccess: (updated) => utils.projects.get.setData({ projectId }, updated) });
  const setEnvironment = trpc.projects.setEnvironment.useMutation({ onSuccess: (updated) => utils.projects.get.setData({ projectId }, updated) });
  const values: ProjectSettingsValues = { name: project.current_revision.name, environment: project.environment };
  const revisionId = typeof project.current_revision.id === 'string' ? project.current_revision.id : undefined;
  // Production beyond what the plan allows: said before the user picks it, with the plan that does (spec §9 quotas).
  const workspaceId = project.workspace_id ?? null;
  const production = trpc.quota.get.useQuery(
    workspaceId ? { workspaceId, feature: 'production_projects' } : { projectId, feature: 'production_projects' },
    { enabled: project.environment !== 'prod' },
  );
  const productionAllowed = project.environment === 'prod' || production.data?.can_use_more === true;
  const environmentOptions = ENVIRONMENT_OPTIONS.map((o) =>
    o.value === 'prod' && !productionAllowed ? { ...o, label: `${o.label} (not on this plan)`, disabled: true } : o,
  );

  return (
    <>
      <SettingsForm
        schema={projectSettingsSchema}
        values={values}
        testId="project-settings"
        submitLabel="Save changes"
        errorContext="Could not save the project settings"
        reportsError={(error) => {
          // A refusal here means the plan changed meanwhile: the limits shown are reloaded and say it once.
          if (quotaFailure(error) === null) return false;
          void production.refetch();
          return true;
        }}
        conflictMessage={PROJECT_CONFLICT_MESSAGE}
        onSave={async (changes) => {
          // Only what changed is sent: the name as a patch on the revision the form was loaded from.
          if (changes.name !== undefined) await rename.mutateAsync({ projectId, name: changes.name, ...(revisionId ? { revisionId } : {}) });
          if (changes.environment !== undefined) await setEnvironment.mutateAsync({ projectId, environment: changes.environment });
        }}
        onSaved={(_, changes) => toast.success(projectSavedMessage(changes))}
        confirm={(changes, saved) => (changes.environment ? environmentConfirmation(saved.name, saved.environment, changes.environment) : undefined)}
        reload={async () => {
          const latest = await utils.projects.get.fetch({ projectId }, { staleTime: 0 });
          return { name: latest.current_revision.name, environment: latest.environment };
        }}
      >
        {(form) => (
          <>
            <TextField label="Project name" autoComplete="off" error={form.formState.errors.name?.message} data-testid="project-name-input" {...form.register('name')} />
            <Select
              label="Environment"
              options={environmentOptions}
              error={form.formState.errors.environment?.message}
              data-testid="project-environment-select"
              {...form.register('environment')}
            />
          </>
        )}
      </SettingsForm>
      {!productionAllowed && production.data && (
        <UpgradePrompt feature="production_projects" units={production.data.used + 1} workspaceId={workspaceId} projectId={projectId} />
      )}
    </>
  );
}

export default function ProjectSettingsPage() {
  const project = useProject();
  const projectId = project.id;
  const currentName = project.current_revision.name;
  const [deleting, setDeleting] = useState(false);
  const [, navigate] = useLocation();
  // Spec §6: false until the answer is known, so the button starts disabled.
  const permissions = trpc.permissions.project.useQuery({ projectId, permissions: ['backoffice.project.delete'] }, { staleTime: 60_000 });
  const canDelete = permissions.data?.['backoffice.project.delete'] === true;
  const utils = trpc.useUtils();
  const remove = trpc.projects.delete.useMutation({
    onSuccess: () => {
      setDeleting(false);
      navigate(ROUTES.projects.build({}));
      utils.projects.get.reset({ projectId });
      toast.success('Project deleted');
    },
  });

  return (
    <div className="page page-narrow" data-testid="project-settings-page">
      <PageHeader
        title="Project settings"
        description={
          <>
            Settings of <Truncate text={currentName} />.
          </>
        }
      />
      <Card title="General">
        <GeneralSettings />
      </Card>
      <MoveProjectCard />
      <Card title="Delete project" testId="danger-zone">
        <p className="card-text">Deleting a project removes its identities, sessions and configuration. This cannot be undone.</p>
        {canDelete ? (
          <Button variant="danger" onClick={() => setDeleting(true)} data-testid="delete-project-button">
            Delete project
          </Button>
        ) : (
          <Tooltip content="Only an owner of this project can delete it.">
            <Button variant="danger" disabled data-testid="delete-project-button">
              Delete project
            </Button>
          </Tooltip>
        )}
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

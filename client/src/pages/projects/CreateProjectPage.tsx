import { useState } from 'react';
import { z } from 'zod';
import { useLocation, useSearch } from 'wouter';
import { MESSAGES } from '../../../../shared/messages';
import { environmentSchema } from '../../../../shared/schemas/common';
import { createProjectInput } from '../../../../shared/schemas/project';
import { Card, PageHeader } from '../../components/Card';
import { loadErrorText } from '../../components/QueryView';
import { quotaFailure, UpgradePrompt } from '../../components/UpgradePrompt';
import { SettingsForm } from '../../components/SettingsForm';
import { Select, TextField } from '../../components/TextField';
import { analytics, ANALYTICS_EVENTS } from '../../lib/analytics';
import { QUERY_RULES } from '../../lib/query-client';
import { useGrace } from '../../lib/use-grace';
import { ROUTES } from '../../routes';
import { showError } from '../../shell/error-toast';
import { trpc } from '../../trpc';
import { ENVIRONMENT_OPTIONS } from './environment';

/** projects.create's fields; the workspace select's empty value stands for "no workspace". */
const createProjectFormSchema = z.object({
  name: createProjectInput.shape.name,
  environment: environmentSchema,
  workspaceId: z.union([z.literal(''), createProjectInput.shape.workspaceId.unwrap()]),
});

export default function CreateProjectPage() {
  const initialWorkspace = new URLSearchParams(useSearch()).get('workspace') ?? '';
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const workspaces = trpc.workspaces.list.useQuery(undefined, QUERY_RULES.workspaceList);
  const workspacesLoading = useGrace(workspaces.isPending);
  const setActive = trpc.projects.setActive.useMutation();
  const create = trpc.projects.create.useMutation();
  const [workspaceId, setWorkspaceId] = useState(initialWorkspace);
  // Spec §9 quotas, shown before the user acts: a workspace's plan may have room for a production project;
  // a project outside any workspace starts on Develop, which has none.
  const production = trpc.quota.get.useQuery({ workspaceId, feature: 'production_projects' }, { enabled: workspaceId !== '' });
  const productionAllowed = workspaceId !== '' && production.data?.can_use_more === true;
  const environmentOptions = ENVIRONMENT_OPTIONS.map((o) =>
    o.value === 'prod' && !productionAllowed ? { ...o, label: `${o.label} (not on this plan)`, disabled: true } : o,
  );

  const initial: z.infer<typeof createProjectFormSchema> = { name: '', environment: 'dev', workspaceId: initialWorkspace };
  const workspaceOptions = [
    { value: '', label: MESSAGES.placeholderWorkspaceName },
    ...(workspaces.data?.workspaces ?? []).flatMap((w) => (w.id ? [{ value: w.id, label: w.name }] : [])),
  ];

  return (
    <div className="page page-narrow" data-testid="create-project-page">
      <PageHeader title="Create a project" description="A project holds identities, sessions, OAuth2 clients and permissions." />
      <Card>
        <SettingsForm
          kind="create"
          schema={createProjectFormSchema}
          values={initial}
          testId="create-project"
          submitLabel="Create project"
          errorContext="Could not create the project"
          reportsError={(error) => {
          // A refusal here means the plan changed meanwhile: the limits shown are reloaded and say it once.
          if (quotaFailure(error) === null) return false;
          void production.refetch();
          return true;
        }}
          onSave={async (_, { workspaceId, ...rest }) => {
            const project = await create.mutateAsync({ ...rest, ...(workspaceId ? { workspaceId } : {}) });
            try {
              await setActive.mutateAsync({ projectId: project.id });
              utils.projects.getActive.setData(undefined, { projectId: project.id });
            } catch (error) {
              showError(error, 'Could not make the new project active');
            }
            return project;
          }}
          onSaved={(project) => {
            analytics.capture(ANALYTICS_EVENTS.projectCreated, { project_id: project.id, environment: project.environment });
            navigate(ROUTES.getStarted.build({ project: project.id }));
          }}
        >
          {(form) => (
            <>
              <TextField label="Project name" autoFocus autoComplete="off" error={form.formState.errors.name?.message} data-testid="project-name-input" {...form.register('name')} />
              <Select
                label="Environment"
                options={environmentOptions}
                error={form.formState.errors.environment?.message}
                hint={productionAllowed ? undefined : workspaceId === '' ? 'Production needs a paid plan: choose a workspace on one, or change the new project’s plan in its billing settings.' : undefined}
                data-testid="project-environment-select"
                {...form.register('environment')}
              />
              <Select
                label="Workspace"
                options={workspaceOptions}
                disabled={workspaces.isPending}
                hint={workspacesLoading ? 'Loading workspaces…' : undefined}
                error={form.formState.errors.workspaceId?.message ?? (workspaces.isError ? `Your workspaces could not be loaded: ${loadErrorText(workspaces.error)}` : undefined)}
                data-testid="project-workspace-select"
                {...form.register('workspaceId', {
                  onChange: (event: { target: { value: string } }) => {
                    setWorkspaceId(event.target.value);
                    // Production is not on the new workspace's plan: fall back to development.
                    if (form.getValues('environment') === 'prod') form.setValue('environment', 'dev');
                  },
                })}
                // Controlled, so a workspace named in the URL is selected once the options arrive.
                value={form.watch('workspaceId')}
              />
              {!productionAllowed && workspaceId !== '' && production.data && (
                <UpgradePrompt feature="production_projects" units={(production.data?.used ?? 0) + 1} workspaceId={workspaceId || null} />
              )}
            </>
          )}
        </SettingsForm>
      </Card>
    </div>
  );
}

import { useState, type FormEvent } from 'react';
import { z } from 'zod';
import { useLocation, useSearch } from 'wouter';
import { createProjectInput } from '../../../../shared/schemas/project';
import type { Environment } from '../../../../shared/schemas/common';
import { MESSAGES } from '../../../../shared/messages';
import { Button } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { Select, TextField } from '../../components/TextField';
import { analytics, ANALYTICS_EVENTS } from '../../lib/analytics';
import { fieldErrors } from '../../lib/errors';
import { QUERY_RULES } from '../../lib/query-client';
import { useGrace } from '../../lib/use-grace';
import { ROUTES } from '../../routes';
import { showError } from '../../shell/error-toast';
import { trpc } from '../../trpc';
import { ENVIRONMENT_OPTIONS } from './environment';

export default function CreateProjectPage() {
  const initialWorkspace = new URLSearchParams(useSearch()).get('workspace') ?? '';
  const [name, setName] = useState('');
  const [environment, setEnvironment] = useState<Environment>('dev');
  const [workspaceId, setWorkspaceId] = useState(initialWorkspace);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const workspaces = trpc.workspaces.list.useQuery(undefined, QUERY_RULES.workspaceList);
  const workspacesLoading = useGrace(workspaces.isPending);
  const setActive = trpc.projects.setActive.useMutation();
  const create = trpc.projects.create.useMutation({
    onSuccess: async (project) => {
      analytics.capture(ANALYTICS_EVENTS.projectCreated, { project_id: project.id, environment: project.environment });
      try {
        await setActive.mutateAsync({ projectId: project.id });
        utils.projects.getActive.setData(undefined, { projectId: project.id });
      } catch (error) {
        showError(error, 'Could not make the new project active');
      }
      await utils.projects.list.invalidate();
      void utils.workspaces.listProjects.invalidate();
      navigate(ROUTES.getStarted.build({ project: project.id }));
    },
    onError: (error) => {
      setErrors(fieldErrors(error));
      showError(error, 'Could not create the project');
    },
  });

  const workspaceOptions = [
    { value: '', label: MESSAGES.placeholderWorkspaceName },
    ...(workspaces.data?.workspaces ?? []).flatMap((w) => (w.id ? [{ value: w.id, label: w.name }] : [])),
  ];

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createProjectInput.safeParse({ name, environment, workspaceId: workspaceId || undefined });
    if (!parsed.success) {
      const flat = z.flattenError(parsed.error).fieldErrors as Record<string, string[] | undefined>;
      setErrors(Object.fromEntries(Object.entries(flat).map(([k, v]) => [k, v?.[0] ?? ''])));
      return;
    }
    setErrors({});
    create.mutate(parsed.data);
  };

  return (
    <div className="page page-narrow" data-testid="create-project-page">
      <PageHeader title="Create a project" description="A project holds identities, sessions, OAuth2 clients and permissions." />
      <Card>
        <form onSubmit={onSubmit} noValidate className="form">
          <TextField label="Project name" name="name" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} autoFocus data-testid="project-name-input" />
          <Select label="Environment" name="environment" value={environment} options={ENVIRONMENT_OPTIONS} onChange={(e) => setEnvironment(e.target.value as Environment)} error={errors.environment} data-testid="project-environment-select" />
          <Select
            label="Workspace"
            name="workspace"
            value={workspaceId}
            options={workspaceOptions}
            onChange={(e) => setWorkspaceId(e.target.value)}
            disabled={workspaces.isPending}
            hint={workspacesLoading ? 'Loading workspaces…' : undefined}
            error={errors.workspaceId ?? (workspaces.isError ? `Your workspaces could not be loaded: ${workspaces.error.message}` : undefined)}
            data-testid="project-workspace-select"
          />
          <div className="form-actions">
            <Button type="submit" variant="primary" busy={create.isPending} data-testid="create-project-submit">
              Create project
            </Button>
          </div>
        </form>
      </Card>
    </div>
  );
}

import toast from 'react-hot-toast';
import { useLocation } from 'wouter';
import { z } from 'zod';
import { projectNameSchema, type ProjectConfiguration } from '../../../../shared/schemas/project';
import { ActionForm, useActionForm } from '../../components/ActionForm';
import { Card } from '../../components/Card';
import { TextField } from '../../components/TextField';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

const copyFormSchema = z.object({ name: projectNameSchema });

/**
 * Creates a new project with this one's configuration (services and CORS, not its identities or members), in
 * the same workspace. If the configuration cannot be applied, the new project is deleted again and the reason shown.
 */
export function CopyProjectCard() {
  const project = useProject();
  const projectId = project.id;
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const createPlain = trpc.projects.createPlain.useMutation();
  const replace = trpc.projects.replace.useMutation();
  const remove = trpc.projects.delete.useMutation();
  const action = useActionForm({
    schema: copyFormSchema,
    defaultValues: { name: `${project.current_revision.name} (copy)` },
    onSubmit: async ({ name }) => {
      const source = await utils.projects.configuration.fetch({ projectId }, { staleTime: 0 });
      const copy = await createPlain.mutateAsync({ name, environment: project.environment === 'prod' ? 'dev' : project.environment, ...(project.workspace_id ? { workspaceId: project.workspace_id } : {}) });
      const configuration = { name: copy.name, services: source.services, cors_admin: source.cors_admin, cors_public: source.cors_public } as ProjectConfiguration;
      try {
        await replace.mutateAsync({ projectId: copy.id, revisionId: copy.revision_id, configuration });
      } catch (failure) {
        // No half-made copy: the project without the configuration goes again.
        await remove.mutateAsync({ projectId: copy.id, confirmName: copy.name }).catch(() => undefined);
        throw failure;
      }
      return copy;
    },
    onDone: (copy) => {
      toast.success(`${copy.name} is a copy of ${project.current_revision.name}.`);
      navigate(ROUTES.getStarted.build({ project: copy.id }));
    },
    errorFallback: 'The project could not be copied.',
  });

  return (
    <Card title="Copy project" testId="copy-project-card">
      <p className="card-text">
        A new project with this project's configuration: identity, OAuth2 and permission settings, email templates and CORS. Identities, sessions and members are not copied; a production project's copy starts in development.
      </p>
      <ActionForm action={action} testId="copy-project" submitLabel="Copy project">
        <TextField label="Name of the copy" autoComplete="off" error={action.form.formState.errors.name?.message} data-testid="copy-project-name" {...action.form.register('name')} />
      </ActionForm>
    </Card>
  );
}

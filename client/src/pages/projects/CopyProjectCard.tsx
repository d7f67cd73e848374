import { useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { useLocation } from 'wouter';
import { projectNameSchema, type ProjectConfiguration } from '../../../../shared/schemas/project';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { TextField } from '../../components/TextField';
import { errorText } from '../../lib/errors';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';

/**
 * Creates a new project with this one's configuration (services and CORS, not its identities or members), in
 * the same workspace. If the configuration cannot be applied, the new project is deleted again and the reason shown.
 */
export function CopyProjectCard() {
  const project = useProject();
  const projectId = project.id;
  const [name, setName] = useState(`${project.current_revision.name} (copy)`);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [, navigate] = useLocation();
  const utils = trpc.useUtils();
  const createPlain = trpc.projects.createPlain.useMutation();
  const replace = trpc.projects.replace.useMutation();
  const remove = trpc.projects.delete.useMutation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const checked = projectNameSchema.safeParse(name);
    if (!checked.success) return setError(checked.error.issues[0]?.message);
    setError(undefined);
    setBusy(true);
    try {
      const source = await utils.projects.configuration.fetch({ projectId }, { staleTime: 0 });
      const copy = await createPlain.mutateAsync({ name: checked.data, environment: project.environment === 'prod' ? 'dev' : project.environment, ...(project.workspace_id ? { workspaceId: project.workspace_id } : {}) });
      const configuration = { name: copy.name, services: source.services, cors_admin: source.cors_admin, cors_public: source.cors_public } as ProjectConfiguration;
      try {
        await replace.mutateAsync({ projectId: copy.id, revisionId: copy.revision_id, configuration });
      } catch (failure) {
        // No half-made copy: the project without the configuration goes again.
        await remove.mutateAsync({ projectId: copy.id, confirmName: copy.name }).catch(() => undefined);
        throw failure;
      }
      toast.success(`${copy.name} is a copy of ${project.current_revision.name}.`);
      navigate(ROUTES.getStarted.build({ project: copy.id }));
    } catch (failure) {
      setError(errorText(failure) ?? 'The project could not be copied.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Copy project" testId="copy-project-card">
      <p className="card-text">
        A new project with this project's configuration: identity, OAuth2 and permission settings, email templates and CORS. Identities, sessions and members are not copied; a production project's copy starts in development.
      </p>
      <form className="form-row" onSubmit={submit} noValidate>
        <TextField label="Name of the copy" autoComplete="off" value={name} onChange={(e) => setName(e.target.value)} error={error} data-testid="copy-project-name" />
        <Button type="submit" variant="primary" busy={busy} data-testid="copy-project-submit">
          Copy project
        </Button>
      </form>
    </Card>
  );
}

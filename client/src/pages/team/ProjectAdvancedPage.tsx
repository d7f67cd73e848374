import { PageHeader } from '../../components/Card';
import { useProject } from '../../shell/ProjectContext';
import { ApiKeysPanel } from './ApiKeysPanel';

/** /projects/{project}/settings/advanced: the project's API keys (ory_pat_) for its own APIs. */
export default function ProjectAdvancedPage() {
  const project = useProject();
  return (
    <div className="page" data-testid="project-advanced-page">
      <PageHeader title="Advanced" description="Project keys (ory_pat_…) call this project's own APIs (identities, sessions, OAuth2, permissions)." />
      <ApiKeysPanel key={project.id} scope={{ projectId: project.id }} />
    </div>
  );
}

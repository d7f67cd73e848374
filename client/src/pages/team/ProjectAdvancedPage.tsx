import { PageHeader } from '../../components/Card';
import { useProject } from '../../shell/ProjectContext';
import { ConfigurationCard } from '../projects/ConfigurationCard';
import { CopyProjectCard } from '../projects/CopyProjectCard';
import { ApiKeysPanel } from './ApiKeysPanel';

/** /projects/{project}/settings/advanced: the project's API keys (ory_pat_) for its own APIs, its whole configuration as JSON, and a copy of it. */
export default function ProjectAdvancedPage() {
  const project = useProject();
  return (
    <div className="page" data-testid="project-advanced-page">
      <PageHeader title="Advanced" description="Project keys (ory_pat_…) call this project's own APIs (identities, sessions, OAuth2, permissions)." />
      <ApiKeysPanel key={project.id} scope={{ projectId: project.id }} />
      <ConfigurationCard key={`configuration-${project.id}`} />
      <CopyProjectCard key={`copy-${project.id}`} />
    </div>
  );
}

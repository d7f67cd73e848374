import { PageHeader } from '../../components/Card';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { ConfigurationCard } from '../projects/ConfigurationCard';
import { CopyProjectCard } from '../projects/CopyProjectCard';
import { ApiKeysPanel } from './ApiKeysPanel';

/** /projects/{project}/settings/advanced: the project's API keys (ory_pat_) for its own APIs, its whole configuration as JSON, and a copy of it. */
export default function ProjectAdvancedPage() {
  const project = useProject();
  // The copy card comes in below the configuration once it is read, so the taller configuration never
  // pushes it down (layout shift).
  const configuration = trpc.projects.configuration.useQuery({ projectId: project.id });
  return (
    <div className="page" data-testid="project-advanced-page">
      <PageHeader title="Advanced" description="Project keys (ory_pat_…) call this project's own APIs (identities, sessions, OAuth2, permissions)." />
      <ApiKeysPanel key={project.id} scope={{ projectId: project.id }} />
      <ConfigurationCard key={`configuration-${project.id}`} />
      {configuration.isFetched && <CopyProjectCard key={`copy-${project.id}`} />}
    </div>
  );
}

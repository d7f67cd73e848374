import { PageHeader } from '../../components/Card';
import { sessionIdentity, useSession } from '../../shell/use-session';
import { useProject } from '../../shell/ProjectContext';
import { TeamPanel } from './TeamPanel';

/** /projects/{project}/settings/collaborators: the project's members (direct and through its workspace) and invites. */
export default function CollaboratorsPage() {
  const project = useProject();
  const me = sessionIdentity(useSession().data);
  return (
    <div className="page" data-testid="collaborators-page">
      <PageHeader title="Collaborators" description="People who work on this project: its own members, and the members of its workspace." />
      <TeamPanel scope={{ projectId: project.id }} workspaceId={project.workspace_id ?? null} currentUserId={me?.id} />
    </div>
  );
}

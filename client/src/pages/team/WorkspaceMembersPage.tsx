import { PageHeader } from '../../components/Card';
import { sessionIdentity, useSession } from '../../shell/use-session';
import { useRouteWorkspace } from '../workspaces/use-workspace';
import { TeamPanel } from './TeamPanel';

/** /workspaces/{workspace}/settings/members: the workspace's members and invites. */
export default function WorkspaceMembersPage() {
  const { workspaceId } = useRouteWorkspace();
  const me = sessionIdentity(useSession().data);
  return (
    <div className="page" data-testid="workspace-members-page">
      <PageHeader title="Members" description="Members of a workspace reach every project in it. Owners manage members, keys and billing." />
      <TeamPanel key={workspaceId} scope={{ workspaceId }} workspaceId={workspaceId} currentUserId={me?.id} />
    </div>
  );
}

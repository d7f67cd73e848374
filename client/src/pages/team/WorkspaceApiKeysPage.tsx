import { PageHeader } from '../../components/Card';
import { useRouteWorkspace } from '../workspaces/use-workspace';
import { ApiKeysPanel } from './ApiKeysPanel';

/** /workspaces/{workspace}/settings/api-keys: workspace keys (ory_wak_) for the control plane. */
export default function WorkspaceApiKeysPage() {
  const { workspaceId } = useRouteWorkspace();
  return (
    <div className="page" data-testid="workspace-api-keys-page">
      <PageHeader title="API keys" description="Workspace keys (ory_wak_…) manage this workspace and its projects through the API, as an owner would." />
      <ApiKeysPanel key={workspaceId} scope={{ workspaceId }} />
    </div>
  );
}

import { LinkButton } from '../../components/Button';
import { PageHeader } from '../../components/Card';
import { ROUTES } from '../../routes';
import { useRouteWorkspace } from '../workspaces/use-workspace';
import { PlanChooser } from './PlanChooser';

/** /workspaces/{workspace}/settings/subscription: the workspace's plan, and changing it. */
export default function WorkspaceSubscriptionPage() {
  const { workspaceId } = useRouteWorkspace();
  return (
    <div className="page" data-testid="workspace-subscription-page">
      <PageHeader
        title="Subscription"
        description="The plan of this workspace covers its projects: seats, production projects, custom domains and usage."
        actions={
          <LinkButton href={ROUTES.workspaceBilling.build({ workspace: workspaceId })} variant="secondary" data-testid="billing-link">
            Billing and invoices
          </LinkButton>
        }
      />
      <PlanChooser key={workspaceId} scope={{ workspaceId }} />
    </div>
  );
}

import { PageHeader } from '../../components/Card';
import { useRouteWorkspace } from '../workspaces/use-workspace';
import { BillingPanel } from './BillingPanel';

/** /workspaces/{workspace}/settings/billing: the workspace's plan, usage, estimated bill and invoices. */
export default function WorkspaceBillingPage() {
  const { workspaceId } = useRouteWorkspace();
  return (
    <div className="page" data-testid="workspace-billing-page">
      <PageHeader title="Billing" description="The plan in force, what this period has used so far, and the invoices of every period." />
      <BillingPanel key={workspaceId} scope={{ workspaceId }} />
    </div>
  );
}

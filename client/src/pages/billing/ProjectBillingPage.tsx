import { PageHeader } from '../../components/Card';
import { useProject } from '../../shell/ProjectContext';
import { trpc } from '../../trpc';
import { BillingPanel } from './BillingPanel';
import { PlanChooser } from './PlanChooser';
import { UnlinkSubscriptionCard } from './UnlinkSubscriptionCard';

/**
 * /projects/{project}/settings/billing: the project's own plan, usage and invoices, and its plan chooser; a
 * project billed with its workspace points there instead.
 */
export default function ProjectBillingPage() {
  const project = useProject();
  const ownBilling = !project.workspace_id || Boolean(project.subscription_id);
  // The plan chooser comes in below the plan once the plan is known, so it never jumps down (layout shift).
  const subscription = trpc.billing.getSubscription.useQuery({ projectId: project.id }, { retry: false, retryOnMount: false });
  return (
    <div className="page" data-testid="project-billing-page">
      <PageHeader title="Billing" description="The plan this project is on, what this period has used so far, and its invoices." />
      <BillingPanel key={project.id} scope={{ projectId: project.id }} projectWorkspaceId={project.workspace_id ?? null} planChooser={ownBilling} />
      {ownBilling && subscription.isFetched && <PlanChooser key={`plans-${project.id}`} scope={{ projectId: project.id }} />}
      {Boolean(project.subscription_id) && subscription.data?.subscription && (
        <UnlinkSubscriptionCard projectId={project.id} projectName={project.current_revision.name} workspaceId={project.workspace_id ?? null} />
      )}
    </div>
  );
}

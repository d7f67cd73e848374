import { PageHeader } from '../../components/Card';
import { useProject } from '../../shell/ProjectContext';
import { BillingPanel } from './BillingPanel';

/** /projects/{project}/settings/billing: the project's own plan, usage and invoices (or where its workspace's are). */
export default function ProjectBillingPage() {
  const project = useProject();
  return (
    <div className="page" data-testid="project-billing-page">
      <PageHeader title="Billing" description="The plan this project is on, what this period has used so far, and its invoices." />
      <BillingPanel key={project.id} scope={{ projectId: project.id }} projectWorkspaceId={project.workspace_id ?? null} />
    </div>
  );
}

import { PageHeader } from '../../components/Card';
import { useProject } from '../../shell/ProjectContext';
import { AuditLog } from '../audit/AuditLog';

/** /projects/{project}/settings/audit-log: who did what in this project, beside its configuration history. */
export default function ProjectAuditLogPage() {
  const project = useProject();
  return (
    <div className="page" data-testid="audit-log-page">
      <PageHeader title="Audit log" description="Who changed what in this project, when, and whether it worked. Only the names of the fields sent are kept, never their values." />
      <AuditLog key={project.id} scope={{ projectId: project.id }} />
    </div>
  );
}

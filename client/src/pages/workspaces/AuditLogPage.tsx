import { PageHeader } from '../../components/Card';
import { AuditLog } from '../audit/AuditLog';
import { useRouteWorkspace } from './use-workspace';

/** /workspaces/{workspace}/settings/audit-log: who did what in this workspace and its projects. */
export default function AuditLogPage() {
  const { workspaceId } = useRouteWorkspace();
  return (
    <div className="page" data-testid="audit-log-page">
      <PageHeader title="Audit log" description="Who changed what in this workspace and its projects, when, and whether it worked. Only the names of the fields sent are kept, never their values." />
      <AuditLog key={workspaceId} scope={{ workspaceId }} />
    </div>
  );
}

import { Card, PageHeader } from '../../components/Card';
import { useProject } from '../../shell/ProjectContext';
import { SessionsTable } from './SessionsTable';

/** /projects/{project}/sessions: the sign-in sessions of the project's users. */
export default function SessionsPage() {
  const project = useProject();
  return (
    <div className="page" data-testid="sessions-page">
      <PageHeader title="Sessions" description="Who is signed in to your application, how, from where and until when." />
      <Card testId="sessions-card">
        <SessionsTable projectId={project.id} />
      </Card>
    </div>
  );
}

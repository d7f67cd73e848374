import { LinkButton } from '../../components/Button';
import { Card, PageHeader } from '../../components/Card';
import { ROUTES } from '../../routes';
import { useProject } from '../../shell/ProjectContext';
import { formatDate } from './environment';
import { EnvironmentBadge } from './ProjectTable';

function Detail({ label, value, testId }: { label: string; value: React.ReactNode; testId: string }) {
  return (
    <div className="detail">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** The project home. */
export default function GetStartedPage() {
  const project = useProject();
  return (
    <div className="page" data-testid="get-started-page">
      <PageHeader
        title={project.current_revision.name}
        description="Your project is ready. Connect your application to its API endpoint to start signing users in."
        actions={
          <LinkButton href={ROUTES.projectSettings.build({ project: project.id })} variant="secondary" data-testid="project-settings-link">
            Project settings
          </LinkButton>
        }
      />
      <Card title="Project details" testId="project-details">
        <dl className="details">
          <Detail label="Name" value={project.current_revision.name} testId="project-name" />
          <Detail label="Slug" value={<code>{project.slug}</code>} testId="project-slug" />
          <Detail label="Environment" value={<EnvironmentBadge environment={project.environment} />} testId="project-environment" />
          <Detail label="Project ID" value={<code>{project.id}</code>} testId="project-id" />
          <Detail label="Workspace ID" value={project.workspace_id ? <code>{project.workspace_id}</code> : '—'} testId="project-workspace-id" />
          <Detail label="Revision ID" value={typeof project.current_revision.id === 'string' ? <code>{project.current_revision.id}</code> : '—'} testId="project-revision-id" />
          <Detail label="API endpoint" value={project.hosts[0] ? <code>https://{project.hosts[0]}</code> : '—'} testId="project-host" />
          <Detail label="Created" value={formatDate(project.created_at)} testId="project-created" />
        </dl>
      </Card>
    </div>
  );
}

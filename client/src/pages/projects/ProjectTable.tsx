import { Link } from 'wouter';
import { Table } from '../../components/Table';
import type { ProjectSummary } from '../../lib/types';
import { ROUTES } from '../../routes';
import { environmentLabel, formatDate } from './environment';

export function EnvironmentBadge({ environment }: { environment: string }) {
  return <span className={`badge badge-${environment}`}>{environmentLabel(environment)}</span>;
}

export function ProjectTable({ projects, testId = 'project-table' }: { projects: readonly ProjectSummary[]; testId?: string }) {
  return (
    <Table
      testId={testId}
      caption="Projects"
      rows={projects}
      rowKey={(p) => p.id}
      columns={[
        {
          key: 'name',
          header: 'Name',
          render: (p) => (
            <Link href={ROUTES.getStarted.build({ project: p.id })} className="link" data-testid="project-link">
              {p.name}
            </Link>
          ),
        },
        { key: 'environment', header: 'Environment', render: (p) => <EnvironmentBadge environment={p.environment} /> },
        { key: 'slug', header: 'Slug', render: (p) => <code>{p.slug}</code> },
        { key: 'created', header: 'Created', render: (p) => formatDate(p.created_at) },
      ]}
    />
  );
}

import { Link } from 'wouter';
import { CopyValue } from '../../components/CopyButton';
import { Table } from '../../components/Table';
import { Truncate } from '../../components/Truncate';
import type { ProjectSummary } from '../../lib/types';
import { ROUTES } from '../../routes';
import { formatDate } from '../../../../shared/domain/format';
import { environmentLabel } from './environment';

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
          className: 'col-name',
          render: (p) => (
            <Link href={ROUTES.getStarted.build({ project: p.id })} className="link" data-testid="project-link">
              <Truncate text={p.name} focusable={false} />
            </Link>
          ),
        },
        { key: 'environment', header: 'Environment', render: (p) => <EnvironmentBadge environment={p.environment} /> },
        { key: 'slug', header: 'Slug', className: 'col-code', render: (p) => <CopyValue value={p.slug} label={`Copy the slug of ${p.name}`} /> },
        { key: 'created', header: 'Created', render: (p) => formatDate(p.created_at) },
      ]}
    />
  );
}

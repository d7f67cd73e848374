import { ArrowLeft } from 'lucide-react';
import { Link } from 'wouter';
import { useCurrentRoute } from '../lib/route-context';
import { useOptionalProject } from '../shell/ProjectContext';
import { ROUTES } from '../routes';

/** A route not built yet: its name, one sentence on what it will do, and a way back. */
export default function SoonPage() {
  const route = useCurrentRoute();
  const project = useOptionalProject();
  const title = route?.nav?.label ?? route?.layout.pageTitle ?? 'Coming soon';
  const back = project ? { href: ROUTES.getStarted.build({ project: project.id }), label: `Back to ${project.current_revision.name}` } : { href: '/', label: 'Back to the Console' };
  return (
    <div className="state soon-page" data-testid="soon-page">
      <span className="nav-soon soon-badge">Soon</span>
      <h1 className="state-title" data-testid="page-title">
        {title}
      </h1>
      <p className="state-text" data-testid="soon-description">
        {route?.nav?.description ?? 'This page is not available yet.'}
      </p>
      <Link href={back.href} className="btn btn-secondary" data-testid="soon-back">
        <ArrowLeft aria-hidden="true" size={16} />
        <span className="truncate">{back.label}</span>
      </Link>
    </div>
  );
}

import { LinkButton } from '../components/Button';
import { QUERY_RULES } from '../lib/query-client';
import { ROUTES } from '../routes';
import { trpc } from '../trpc';

/** The first-time experience: a newcomer without projects is pointed at creating one. */
export function FirstTimeBanner() {
  const projects = trpc.projects.list.useQuery(undefined, QUERY_RULES.projectList);
  if (!projects.isSuccess || projects.data.length > 0) return null;
  return (
    <div className="banner" role="note" data-testid="first-time-banner">
      <div>
        <strong>Welcome to the Console.</strong> Create your first project to start managing identities and sign-in.
      </div>
      <LinkButton href={ROUTES.createProject.build({})} data-testid="first-time-create-project">
        Create project
      </LinkButton>
    </div>
  );
}

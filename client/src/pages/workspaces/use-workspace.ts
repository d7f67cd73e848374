import { useParams } from 'wouter';
import { QUERY_RULES } from '../../lib/query-client';
import { withForbiddenFallback } from '../../lib/workspace-fallback';
import { trpc } from '../../trpc';

/** The workspace named by the route's {workspace} parameter; null (no error) when loading it answers 403. */
export function useRouteWorkspace() {
  const { workspace = '' } = useParams<{ workspace?: string }>();
  const query = trpc.workspaces.get.useQuery({ workspaceId: workspace }, { ...QUERY_RULES.workspace, enabled: workspace !== '' });
  return { workspaceId: workspace, query: withForbiddenFallback(query) };
}

import { eq } from 'drizzle-orm';
import { projects } from '../controlplane/schema';
import type { Queryable } from '../db/types';
import { OryHttpError } from '../identity/errors';

/** The project whose data plane a request addresses; its tenant id (`nid`) is the project id. */
export interface Tenant {
  nid: string;
  projectId: string;
  workspaceId: string | null;
  slug: string;
}

/** The tenant of `/project-api/{slug}`, or Ory's 404 when no project has that slug. */
export async function tenantForSlug(q: Queryable, slug: string): Promise<Tenant> {
  if (slug === '') throw new OryHttpError(404, { reason: 'No project has this slug.' });
  const [row] = await q.orm
    .select({ id: projects.id, slug: projects.slug, workspace_id: projects.workspace_id })
    .from(projects)
    .where(eq(projects.slug, slug));
  if (!row) throw new OryHttpError(404, { reason: `No project has the slug "${slug}".` });
  return { nid: row.id, projectId: row.id, workspaceId: row.workspace_id, slug: row.slug };
}

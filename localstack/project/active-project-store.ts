import { and, eq } from 'drizzle-orm';
import { consoleActiveProject, projects } from './schema';
import type { Queryable } from '../kernel/queryable';
import { readableBy } from './store';

/** The identity's selected project, when it can still read it. */
export async function findActiveProject(q: Queryable, identityId: string): Promise<string | undefined> {
  const [row] = await q.orm
    .select({ project_id: consoleActiveProject.project_id })
    .from(consoleActiveProject)
    .innerJoin(projects, eq(projects.id, consoleActiveProject.project_id))
    .where(and(eq(consoleActiveProject.identity_id, identityId), readableBy(identityId)));
  return row?.project_id;
}

export async function setActiveProject(q: Queryable, identityId: string, projectId: string): Promise<void> {
  const now = new Date();
  await q.orm
    .insert(consoleActiveProject)
    .values({ identity_id: identityId, project_id: projectId, updated_at: now })
    .onConflictDoUpdate({ target: consoleActiveProject.identity_id, set: { project_id: projectId, updated_at: now } });
}

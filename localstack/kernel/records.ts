import { eq, type SQL } from 'drizzle-orm';
import type { Queryable } from './queryable';
import { projects, workspaces, type ProjectRow, type WorkspaceRow } from './tables';

/* The project and workspace lookups the kernel's permission checks need (project/store.ts and workspace/store.ts re-export them). */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function findProject(q: Queryable, id: string, lock = false): Promise<ProjectRow | undefined> {
  return findProjectWhere(q, eq(projects.id, id), lock);
}

/**
 * A project by id or slug (the API's `{project}`). `lock` holds the row for the rest of the transaction,
 * which serialises concurrent revisions and moves.
 */
export async function findProjectByRef(q: Queryable, ref: string, lock = false): Promise<ProjectRow | undefined> {
  return findProjectWhere(q, UUID.test(ref) ? eq(projects.id, ref.toLowerCase()) : eq(projects.slug, ref), lock);
}

async function findProjectWhere(q: Queryable, where: SQL, lock: boolean): Promise<ProjectRow | undefined> {
  const query = q.orm.select().from(projects).where(where);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/** `lock` holds the row for the rest of the transaction (membership and key changes serialise on it). */
export async function findWorkspace(q: Queryable, id: string, lock = false): Promise<WorkspaceRow | undefined> {
  const query = q.orm.select().from(workspaces).where(eq(workspaces.id, id));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}


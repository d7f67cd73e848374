import { eq } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { projectRevisions, projects } from '../project/schema';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `services.account_experience.config` of the project's current revision (locale behaviour, default locale, …). */
export async function accountExperienceConfig(q: Queryable, projectId: string): Promise<Record<string, unknown>> {
  const [row] = await q.orm
    .select({ services: projectRevisions.services })
    .from(projects)
    .innerJoin(projectRevisions, eq(projectRevisions.id, projects.current_revision_id))
    .where(eq(projects.id, projectId));
  const service = isObject(row?.services) ? row.services.account_experience : undefined;
  const config = isObject(service) ? service.config : undefined;
  return isObject(config) ? config : {};
}

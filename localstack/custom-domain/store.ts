import { randomUUID } from 'node:crypto';
import { and, asc, eq, ne } from 'drizzle-orm';
import type { Queryable } from '../kernel/queryable';
import { projects, type ProjectRow } from '../project/schema';
import { customDomains, type CustomDomainRow } from './schema';

export const listProjectDomains = (q: Queryable, projectId: string): Promise<CustomDomainRow[]> =>
  q.orm.select().from(customDomains).where(eq(customDomains.project_id, projectId)).orderBy(asc(customDomains.created_at), asc(customDomains.id));

export async function findDomain(q: Queryable, id: string): Promise<CustomDomainRow | null> {
  const [row] = await q.orm.select().from(customDomains).where(eq(customDomains.id, id));
  return row ?? null;
}

export async function findDomainByHostname(q: Queryable, hostname: string): Promise<CustomDomainRow | null> {
  const [row] = await q.orm.select().from(customDomains).where(eq(customDomains.hostname, hostname));
  return row ?? null;
}

/** An active domain's row and its (not deleted) project, by host name: what the data plane answers on. */
export async function findServedDomain(q: Queryable, hostname: string): Promise<{ domain: CustomDomainRow; project: ProjectRow } | null> {
  const [row] = await q.orm
    .select({ domain: customDomains, project: projects })
    .from(customDomains)
    .innerJoin(projects, eq(projects.id, customDomains.project_id))
    .where(and(eq(customDomains.hostname, hostname), ne(projects.state, 'deleted')));
  return row ?? null;
}

export type NewDomain = Omit<CustomDomainRow, 'id' | 'verified_at' | 'verification_errors'>;

export async function insertDomain(q: Queryable, values: NewDomain): Promise<CustomDomainRow> {
  const [row] = await q.orm.insert(customDomains).values({ id: randomUUID(), ...values }).returning();
  return row!;
}

export async function updateDomainRow(q: Queryable, id: string, set: Partial<Omit<CustomDomainRow, 'id' | 'project_id' | 'hostname'>>): Promise<CustomDomainRow> {
  const [row] = await q.orm.update(customDomains).set(set).where(eq(customDomains.id, id)).returning();
  return row!;
}

export async function deleteDomainRow(q: Queryable, id: string): Promise<void> {
  await q.orm.delete(customDomains).where(eq(customDomains.id, id));
}

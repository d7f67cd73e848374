import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../kernel/queryable';
import { identities } from '../identity/schema';
import { onboardingPortalLinks, organizations, type OnboardingPortalLinkRow, type OrganizationRow } from './schema';

export interface OrganizationCursor {
  createdAt: string;
  id: string;
}

/** One page of a project's organizations in (created_at, id) order, one extra row telling if more follow; `domain` keeps those listing it. */
export function listOrganizations(q: Queryable, projectId: string, pageSize: number, after: OrganizationCursor | null, domain: string | undefined): Promise<OrganizationRow[]> {
  return q.orm
    .select()
    .from(organizations)
    .where(
      and(
        eq(organizations.project_id, projectId),
        domain ? sql`${organizations.domains} @> ${JSON.stringify([domain])}::jsonb` : undefined,
        after ? sql`(${organizations.created_at}, ${organizations.id}) > (${after.createdAt}::timestamptz, ${after.id}::uuid)` : undefined,
      ),
    )
    .orderBy(asc(organizations.created_at), asc(organizations.id))
    .limit(pageSize + 1);
}

export async function findOrganization(q: Queryable, id: string): Promise<OrganizationRow | null> {
  const [row] = await q.orm.select().from(organizations).where(eq(organizations.id, id));
  return row ?? null;
}

/** The organizations of a project that list any of `domains` (other than `except`). */
export function organizationsWithDomains(q: Queryable, projectId: string, domains: string[], except?: string): Promise<OrganizationRow[]> {
  if (domains.length === 0) return Promise.resolve([]);
  return q.orm
    .select()
    .from(organizations)
    .where(
      and(
        eq(organizations.project_id, projectId),
        // Domain names hold no commas (spec §5), so one text parameter carries the list.
        sql`jsonb_exists_any(${organizations.domains}, string_to_array(${domains.join(',')}, ','))`,
        except ? sql`${organizations.id} <> ${except}::uuid` : undefined,
      ),
    );
}

export async function countOrganizations(q: Queryable, projectId: string): Promise<number> {
  const [row] = await q.orm.select({ n: sql<number>`count(*)::int` }).from(organizations).where(eq(organizations.project_id, projectId));
  return row?.n ?? 0;
}

export async function insertOrganization(q: Queryable, values: Omit<OrganizationRow, 'id'>): Promise<OrganizationRow> {
  const [row] = await q.orm.insert(organizations).values({ id: randomUUID(), ...values }).returning();
  return row!;
}

export async function updateOrganizationRow(q: Queryable, id: string, set: Partial<Omit<OrganizationRow, 'id' | 'project_id'>>): Promise<OrganizationRow> {
  const [row] = await q.orm.update(organizations).set(set).where(eq(organizations.id, id)).returning();
  return row!;
}

/** Deletes an organization; its members stay as identities of the project, with no organization. */
export async function deleteOrganizationRow(q: Queryable, id: string): Promise<void> {
  await q.orm.update(identities).set({ organization_id: null }).where(eq(identities.organization_id, id));
  await q.orm.delete(organizations).where(eq(organizations.id, id));
}

export const listLinks = (q: Queryable, organizationId: string): Promise<OnboardingPortalLinkRow[]> =>
  q.orm.select().from(onboardingPortalLinks).where(eq(onboardingPortalLinks.organization_id, organizationId)).orderBy(asc(onboardingPortalLinks.created_at), asc(onboardingPortalLinks.id));

export async function findLink(q: Queryable, id: string): Promise<OnboardingPortalLinkRow | null> {
  const [row] = await q.orm.select().from(onboardingPortalLinks).where(eq(onboardingPortalLinks.id, id));
  return row ?? null;
}

export async function insertLink(q: Queryable, values: Omit<OnboardingPortalLinkRow, 'id'>): Promise<OnboardingPortalLinkRow> {
  const [row] = await q.orm.insert(onboardingPortalLinks).values({ id: randomUUID(), ...values }).returning();
  return row!;
}

export async function updateLinkRow(q: Queryable, id: string, set: Partial<Pick<OnboardingPortalLinkRow, 'enable_sso' | 'enable_scim' | 'expires_at' | 'updated_at'>>): Promise<OnboardingPortalLinkRow> {
  const [row] = await q.orm.update(onboardingPortalLinks).set(set).where(eq(onboardingPortalLinks.id, id)).returning();
  return row!;
}

export async function deleteLinkRow(q: Queryable, id: string): Promise<void> {
  await q.orm.delete(onboardingPortalLinks).where(eq(onboardingPortalLinks.id, id));
}

/** The link whose token is `value` (tokens are unique across the stack), or null. */
export async function findLinkByValue(q: Queryable, value: string): Promise<OnboardingPortalLinkRow | null> {
  const [row] = await q.orm.select().from(onboardingPortalLinks).where(eq(onboardingPortalLinks.value, value));
  return row ?? null;
}

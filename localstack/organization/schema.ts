import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../project/schema';

const tstz = { withTimezone: true, mode: 'date' } as const;

/*
 * Organizations of a project (Ory's organization): a label and the email domains whose users sign in
 * through the organization's own identity provider. A domain belongs to one organization of a project at
 * most (checked on write, the list being JSON). Deleting the project deletes its organizations.
 */
export const organizations = pgTable(
  'organizations',
  {
    id: uuid().primaryKey(),
    project_id: uuid().notNull(),
    label: text().notNull(),
    domains: jsonb().$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    default_region: text(),
    session_lifespan: text(),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    foreignKey({ name: 'organizations_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete('cascade'),
    index('organizations_project_idx').on(t.project_id, t.created_at, t.id),
  ],
);

export type OrganizationRow = typeof organizations.$inferSelect;

/*
 * Onboarding portal links of an organization: an expiring token that lets the customer's administrator
 * set up the organization's single sign-on (and SCIM, when enabled) without a console account. The token
 * is unique across the stack; deleting the organization deletes its links.
 */
export const onboardingPortalLinks = pgTable(
  'onboarding_portal_links',
  {
    id: uuid().primaryKey(),
    organization_id: uuid().notNull(),
    project_id: uuid().notNull(),
    value: text().notNull(),
    enable_sso: boolean().notNull(),
    enable_scim: boolean().notNull(),
    custom_hostname_id: uuid(),
    expires_at: timestamp(tstz).notNull(),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    unique('onboarding_portal_links_value_key').on(t.value),
    foreignKey({ name: 'onboarding_portal_links_organization_id_fkey', columns: [t.organization_id], foreignColumns: [organizations.id] }).onDelete('cascade'),
    index('onboarding_portal_links_organization_idx').on(t.organization_id, t.created_at, t.id),
  ],
);

export type OnboardingPortalLinkRow = typeof onboardingPortalLinks.$inferSelect;

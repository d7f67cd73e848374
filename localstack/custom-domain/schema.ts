import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../project/schema';

const tstz = { withTimezone: true, mode: 'date' } as const;

/*
 * Custom domains (Ory's customDomain): a host name serves one project's API at most (the unique key is
 * what answers 409 to a second project). `ssl_status` and `verification_status` are moved by the DNS
 * check; `verified_at` is when the CNAME first pointed at the project (a record removed after that reads
 * as deleted, before it as still pending). Deleting the project deletes its domains.
 */
export const customDomains = pgTable(
  'custom_domains',
  {
    id: uuid().primaryKey(),
    project_id: uuid().notNull(),
    hostname: text().notNull(),
    cookie_domain: text().notNull().default(''),
    custom_ui_base_url: text().notNull().default(''),
    cors_enabled: boolean().notNull().default(false),
    cors_allowed_origins: jsonb().$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    ssl_status: text().notNull(),
    verification_status: text().notNull(),
    verification_errors: jsonb().$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    verified_at: timestamp(tstz),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    unique('custom_domains_hostname_key').on(t.hostname),
    foreignKey({ name: 'custom_domains_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete('cascade'),
    index('custom_domains_project_idx').on(t.project_id, t.created_at, t.id),
  ],
);

export type CustomDomainRow = typeof customDomains.$inferSelect;

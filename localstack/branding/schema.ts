import { foreignKey, index, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { projects } from '../project/schema';

/*
 * A project's branding (Ory's projectBranding): one row per project naming the theme its hosted pages wear
 * (`default_theme_id`) and the built-in theme it falls back to (`base_theme_id`), and its themes
 * (projectBrandingTheme): a name, a logo and a favicon, and Ory's colour keys in `colors`.
 */

const tstz = { withTimezone: true, mode: 'date' } as const;

export const projectBrandings = pgTable(
  'project_brandings',
  {
    id: uuid().primaryKey(),
    project_id: uuid().notNull(),
    default_theme_id: uuid(),
    base_theme_id: uuid(),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    unique('project_brandings_project_id_key').on(t.project_id),
    foreignKey({ name: 'project_brandings_project_id_fkey', columns: [t.project_id], foreignColumns: [projects.id] }).onDelete('cascade'),
  ],
);

export const projectBrandingThemes = pgTable(
  'project_branding_themes',
  {
    id: uuid().primaryKey(),
    project_branding_id: uuid().notNull(),
    name: text().notNull(),
    logo_url: text(),
    logo_type: text(),
    favicon_url: text(),
    favicon_type: text(),
    colors: jsonb().$type<Record<string, string>>().notNull(),
    created_at: timestamp(tstz).notNull(),
    updated_at: timestamp(tstz).notNull(),
  },
  (t) => [
    index('project_branding_themes_branding_idx').on(t.project_branding_id, t.created_at),
    foreignKey({ name: 'project_branding_themes_branding_fkey', columns: [t.project_branding_id], foreignColumns: [projectBrandings.id] }).onDelete('cascade'),
  ],
);

export type ProjectBrandingRow = typeof projectBrandings.$inferSelect;
export type ProjectBrandingThemeRow = typeof projectBrandingThemes.$inferSelect;

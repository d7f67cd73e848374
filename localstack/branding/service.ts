import { randomUUID } from 'node:crypto';
import { and, asc, count, eq } from 'drizzle-orm';
import { planLimit } from '../../shared/domain/plan-quotas';
import { planDisplayName } from '../../shared/domain/plans';
import type { BrandingThemeBody } from '../../shared/schemas/branding';
import { planInForce } from '../billing/quota';
import type { Queryable } from '../db/types';
import { badRequest, conflict, featureNotAvailable, notFound, quotaExceeded } from '../kernel/errors';
import type { ProjectRow } from '../project/schema';
import { projectBrandings, projectBrandingThemes, type ProjectBrandingRow, type ProjectBrandingThemeRow } from './schema';

/** The built-in theme every project's branding starts with: Ory's default look, no colours of its own. */
const BASE_THEME_NAME = 'Default';

const withoutUndefined = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Partial<T>;

/** A theme in Ory's wire format (projectBrandingTheme). */
export const themeView = (row: ProjectBrandingThemeRow) => ({
  id: row.id,
  project_branding_id: row.project_branding_id,
  name: row.name,
  ...withoutUndefined({ logo_url: row.logo_url, logo_type: row.logo_type, favicon_url: row.favicon_url, favicon_type: row.favicon_type }),
  ...row.colors,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

async function themesOf(q: Queryable, brandingId: string) {
  return q.orm.select().from(projectBrandingThemes).where(eq(projectBrandingThemes.project_branding_id, brandingId)).orderBy(asc(projectBrandingThemes.created_at), asc(projectBrandingThemes.id));
}

/** A project's branding in Ory's wire format (projectBranding). */
export async function brandingView(q: Queryable, branding: ProjectBrandingRow) {
  const themes = await themesOf(q, branding.id);
  const active = themes.find((t) => t.id === branding.default_theme_id) ?? themes.find((t) => t.id === branding.base_theme_id) ?? themes[0];
  if (!active) throw new Error(`branding ${branding.id} has no theme`);
  return {
    id: branding.id,
    project_id: branding.project_id,
    default_theme: themeView(active),
    themes: themes.map(themeView),
    created_at: branding.created_at.toISOString(),
    updated_at: branding.updated_at.toISOString(),
  };
}

export async function findBranding(q: Queryable, projectId: string): Promise<ProjectBrandingRow | null> {
  const [row] = await q.orm.select().from(projectBrandings).where(eq(projectBrandings.project_id, projectId));
  return row ?? null;
}

/** The image columns a body sets (only those given): an empty URL removes that image and its type. */
function themeValues(body: BrandingThemeBody): Partial<Record<'logo_url' | 'logo_type' | 'favicon_url' | 'favicon_type', string | null>> {
  const out: Partial<Record<'logo_url' | 'logo_type' | 'favicon_url' | 'favicon_type', string | null>> = {};
  for (const kind of ['logo', 'favicon'] as const) {
    const url = body[`${kind}_url`];
    const type = body[`${kind}_type`];
    if (url === '') {
      out[`${kind}_url`] = null;
      out[`${kind}_type`] = null;
      continue;
    }
    if (url !== undefined) out[`${kind}_url`] = url;
    if (type !== undefined) out[`${kind}_type`] = type;
  }
  return out;
}

/** Creates the project's branding with its built-in theme (styled by `body` when given); 409 if it exists. */
export async function createBranding(q: Queryable, project: ProjectRow, body: BrandingThemeBody, now: Date): Promise<ProjectBrandingRow> {
  const [branding] = await q.orm
    .insert(projectBrandings)
    .values({ id: randomUUID(), project_id: project.id, created_at: now, updated_at: now })
    .onConflictDoNothing()
    .returning();
  if (!branding) throw conflict('This project already has its branding. Add themes to it instead.');
  const themeId = randomUUID();
  await q.orm.insert(projectBrandingThemes).values({
    id: themeId,
    project_branding_id: branding.id,
    name: body.name ?? BASE_THEME_NAME,
    ...themeValues(body),
    colors: body.theme ?? {},
    created_at: now,
    updated_at: now,
  });
  const [row] = await q.orm
    .update(projectBrandings)
    .set({ base_theme_id: themeId, default_theme_id: themeId })
    .where(eq(projectBrandings.id, branding.id))
    .returning();
  return row!;
}

/** The project's branding, made with its built-in theme on first use. */
export async function ensureBranding(q: Queryable, project: ProjectRow, now: Date): Promise<ProjectBrandingRow> {
  return (await findBranding(q, project.id)) ?? createBranding(q, project, {}, now);
}

/** Refuses a theme past the plan's `branding_themes` (the built-in theme is not counted). */
async function assertThemeRoom(q: Queryable, project: ProjectRow, branding: ProjectBrandingRow): Promise<void> {
  const plan = await planInForce(q, { kind: 'project', project });
  const limit = planLimit(plan, 'branding_themes');
  if (limit === 'unlimited') return;
  const name = planDisplayName(plan);
  if (limit === 'unavailable') throw featureNotAvailable('branding_themes', `The ${name} plan does not include branding themes. Upgrade the plan to use them.`);
  const [row] = await q.orm.select({ n: count() }).from(projectBrandingThemes).where(eq(projectBrandingThemes.project_branding_id, branding.id));
  const used = Number(row?.n ?? 0) - 1;
  if (used >= limit) {
    throw quotaExceeded(
      'branding_themes',
      `The ${name} plan includes ${limit} branding ${limit === 1 ? 'theme' : 'themes'}, and ${limit === 1 ? 'it is' : 'all are'} in use. Upgrade the plan or delete a theme first.`,
    );
  }
}

export async function createTheme(q: Queryable, project: ProjectRow, body: BrandingThemeBody, now: Date) {
  if (!body.name) throw badRequest('Give the theme a name.', { name: 'Give the theme a name.' });
  const branding = await ensureBranding(q, project, now);
  // One theme at a time per project: the count below sees the other's theme.
  await q.orm.select({ id: projectBrandings.id }).from(projectBrandings).where(eq(projectBrandings.id, branding.id)).for('update');
  await assertThemeRoom(q, project, branding);
  const [row] = await q.orm
    .insert(projectBrandingThemes)
    .values({ id: randomUUID(), project_branding_id: branding.id, name: body.name, ...themeValues(body), colors: body.theme ?? {}, created_at: now, updated_at: now })
    .returning();
  return themeView(row!);
}

async function themeOfProject(q: Queryable, project: ProjectRow, themeId: string) {
  const branding = await findBranding(q, project.id);
  const [theme] = branding
    ? await q.orm.select().from(projectBrandingThemes).where(and(eq(projectBrandingThemes.project_branding_id, branding.id), eq(projectBrandingThemes.id, themeId)))
    : [];
  if (!branding || !theme) throw notFound('No such theme in this project. Reload the themes and try again.');
  return { branding, theme };
}

/** Sets the theme's given fields; colours given replace the theme's colours (an empty one clears them). */
export async function updateTheme(q: Queryable, project: ProjectRow, themeId: string, body: BrandingThemeBody, now: Date) {
  const { theme } = await themeOfProject(q, project, themeId);
  const [row] = await q.orm
    .update(projectBrandingThemes)
    .set({
      ...(body.name ? { name: body.name } : {}),
      ...themeValues(body),
      ...(body.theme ? { colors: body.theme } : {}),
      updated_at: now,
    })
    .where(eq(projectBrandingThemes.id, theme.id))
    .returning();
  return themeView(row!);
}

export async function deleteTheme(q: Queryable, project: ProjectRow, themeId: string, now: Date): Promise<void> {
  const { branding, theme } = await themeOfProject(q, project, themeId);
  if (theme.id === branding.base_theme_id) throw badRequest('The default theme cannot be deleted; edit it, or activate another theme.');
  if (theme.id === branding.default_theme_id) {
    await q.orm.update(projectBrandings).set({ default_theme_id: branding.base_theme_id, updated_at: now }).where(eq(projectBrandings.id, branding.id));
  }
  await q.orm.delete(projectBrandingThemes).where(eq(projectBrandingThemes.id, theme.id));
}

export async function activateTheme(q: Queryable, project: ProjectRow, themeId: string, now: Date) {
  const { branding, theme } = await themeOfProject(q, project, themeId);
  const [row] = await q.orm.update(projectBrandings).set({ default_theme_id: theme.id, updated_at: now }).where(eq(projectBrandings.id, branding.id)).returning();
  return brandingView(q, row!);
}

/** Back to the built-in theme. */
export async function deactivateTheme(q: Queryable, project: ProjectRow, now: Date) {
  const branding = await ensureBranding(q, project, now);
  const [row] = await q.orm.update(projectBrandings).set({ default_theme_id: branding.base_theme_id, updated_at: now }).where(eq(projectBrandings.id, branding.id)).returning();
  return brandingView(q, row!);
}

/** What styles a project's hosted pages: its active theme's fields (none before it has a branding). */
export async function activeTheme(q: Queryable, projectId: string): Promise<Record<string, string> | null> {
  const branding = await findBranding(q, projectId);
  if (!branding?.default_theme_id) return null;
  const [theme] = await q.orm.select().from(projectBrandingThemes).where(eq(projectBrandingThemes.id, branding.default_theme_id));
  if (!theme) return null;
  return { name: theme.name, ...withoutUndefined({ logo_url: theme.logo_url, favicon_url: theme.favicon_url }), ...theme.colors } as Record<string, string>;
}

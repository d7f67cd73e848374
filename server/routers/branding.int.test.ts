import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { setPlan } from '../test-support/localstack-data';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

/*
 * The branding procedures through the BFF against a real local stack: themes with Ory's field names, edits
 * that keep what they do not name, activation that the hosted pages wear, the plan's branding_themes quota,
 * and a second user who gets nothing.
 */

let stack: TestStack;
let deps: AppDeps;
let a: ReturnType<typeof callerFor>;
let b: ReturnType<typeof callerFor>;
let project: { id: string; slug: string };

/** The hosted login page's canvas colour, as its stylesheet sets it (fetched as a browser does: cookies kept). */
async function hostedCanvas(slug: string): Promise<string | undefined> {
  const jar = new Map<string, string>();
  let url = `${stack.url}/project-api/${slug}/ui/login`;
  for (let hop = 0; hop < 6; hop++) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';');
      const eq = pair!.indexOf('=');
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const location = res.headers.get('location');
    if (!location) return (await res.text()).match(/:root\{[^}]*--canvas:([^;]+);/)?.[1];
    url = new URL(location, url).toString();
  }
  throw new Error(`${url}: too many redirects`);
}

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  const [userA, userB] = await Promise.all([registerUser(stack.url, { name: 'Ada' }), registerUser(stack.url, { name: 'Bea' })]);
  a = callerFor(deps, userA.cookie);
  b = callerFor(deps, userB.cookie);
  project = await a.projects.create({ name: 'Branded', environment: 'dev' });
});
afterAll(async () => {
  await stack?.close();
});

describe('branding', () => {
  it('starts with its built-in theme, creates themes with Ory’s field names, and merges edits onto what is there', async () => {
    const first = await a.branding.get({ projectId: project.id });
    expect(first.project_id).toBe(project.id);
    expect(first.themes).toHaveLength(1);
    expect(first.default_theme.id).toBe(first.themes[0]!.id);

    const night = await a.branding.createTheme({
      projectId: project.id,
      name: 'Night',
      primary_color: '#f2aa4c',
      background_canvas_color: '#101820',
      logo_url: 'https://cdn.example.com/logo.png',
    });
    expect(night).toMatchObject({ name: 'Night', primary_color: '#f2aa4c', background_canvas_color: '#101820', logo_url: 'https://cdn.example.com/logo.png', project_branding_id: first.id });

    // One colour changed, one cleared: the others stay, and so do the name and logo.
    const edited = await a.branding.updateTheme({ projectId: project.id, themeId: night.id, primary_color: '#00ff88', background_canvas_color: null });
    expect(edited).toMatchObject({ name: 'Night', primary_color: '#00ff88', logo_url: 'https://cdn.example.com/logo.png' });
    expect(edited.background_canvas_color).toBeUndefined();
    const renamed = await a.branding.updateTheme({ projectId: project.id, themeId: night.id, name: 'Midnight' });
    expect(renamed).toMatchObject({ name: 'Midnight', primary_color: '#00ff88' });

    // A favicon added, then the logo and the favicon removed (null): the theme has neither, nor their types.
    const withIcon = await a.branding.updateTheme({ projectId: project.id, themeId: night.id, favicon_url: 'https://cdn.example.com/icon.png', favicon_type: 'image/png' });
    expect(withIcon).toMatchObject({ favicon_url: 'https://cdn.example.com/icon.png', favicon_type: 'image/png', logo_url: 'https://cdn.example.com/logo.png' });
    const bare = await a.branding.updateTheme({ projectId: project.id, themeId: night.id, logo_url: null, favicon_url: null });
    expect(bare).toMatchObject({ name: 'Midnight', primary_color: '#00ff88' });
    expect(bare).not.toHaveProperty('logo_url');
    expect(bare).not.toHaveProperty('favicon_url');
    expect(bare).not.toHaveProperty('favicon_type');
    expect((await a.branding.get({ projectId: project.id })).themes.find((t) => t.id === night.id)).not.toHaveProperty('logo_url');

    const listed = await a.branding.get({ projectId: project.id });
    expect(listed.themes.map((t) => t.name)).toEqual([first.themes[0]!.name, 'Midnight']);
  });

  it('activates a theme for the hosted pages and deactivates it again', async () => {
    const theme = (await a.branding.get({ projectId: project.id })).themes.find((t) => t.name === 'Midnight')!;
    await a.branding.updateTheme({ projectId: project.id, themeId: theme.id, background_canvas_color: '#202830' });
    expect(await hostedCanvas(project.slug)).toBe('#f4f5f7');

    const activated = await a.branding.activate({ projectId: project.id, themeId: theme.id });
    expect(activated.default_theme.id).toBe(theme.id);
    expect(await hostedCanvas(project.slug)).toBe('#202830');

    const deactivated = await a.branding.deactivate({ projectId: project.id });
    expect(deactivated.default_theme.id).not.toBe(theme.id);
    expect(await hostedCanvas(project.slug)).toBe('#f4f5f7');
  });

  it('refuses a theme past the plan’s branding_themes, and counts again once one is deleted', async () => {
    // Develop includes one theme besides the built-in one, and Midnight is it.
    const refused = await rejection(a.branding.createTheme({ projectId: project.id, name: 'Day' }));
    expect(refused?.code).toBe('FORBIDDEN');
    expect(refused?.message).toMatch(/includes 1 branding theme/);
    expect((refused?.cause as { errorId?: string } | undefined)?.errorId).toBe('quota_exceeded');

    const midnight = (await a.branding.get({ projectId: project.id })).themes.find((t) => t.name === 'Midnight')!;
    await a.branding.activate({ projectId: project.id, themeId: midnight.id });
    expect(await a.branding.deleteTheme({ projectId: project.id, themeId: midnight.id })).toEqual({ ok: true });
    // The deleted theme was active: the built-in one is back.
    const after = await a.branding.get({ projectId: project.id });
    expect(after.themes).toHaveLength(1);
    expect(after.default_theme.id).toBe(after.themes[0]!.id);
    expect((await a.branding.createTheme({ projectId: project.id, name: 'Day' })).name).toBe('Day');

    // The built-in theme cannot be deleted; a theme of no project is not found.
    expect((await rejection(a.branding.deleteTheme({ projectId: project.id, themeId: after.themes[0]!.id })))?.code).toBe('BAD_REQUEST');
    expect((await rejection(a.branding.updateTheme({ projectId: project.id, themeId: '00000000-0000-4000-8000-000000000009', primary_color: '#000000' })))?.code).toBe('NOT_FOUND');
    expect((await rejection(a.branding.activate({ projectId: project.id, themeId: '00000000-0000-4000-8000-000000000009' })))?.code).toBe('NOT_FOUND');
  });

  it('allows more themes on a larger plan', async () => {
    const workspace = (await a.workspaces.create({ name: 'Paid' })).id!;
    await setPlan(stack.stack.db, { kind: 'workspace', workspaceId: workspace }, 'Production@0');
    const paid = await a.projects.create({ name: 'Paid', environment: 'dev', workspaceId: workspace });
    for (const name of ['One', 'Two', 'Three']) expect((await a.branding.createTheme({ projectId: paid.id, name })).name).toBe(name);
    expect((await a.branding.get({ projectId: paid.id })).themes).toHaveLength(4);
  });

  it('gives a second user nothing of the first user’s themes, and leaves them as they were', async () => {
    const before = await a.branding.get({ projectId: project.id });
    const theme = before.themes.find((t) => t.name === 'Day')!;
    const calls = [
      () => b.branding.get({ projectId: project.id }),
      () => b.branding.createTheme({ projectId: project.id, name: 'Planted' }),
      () => b.branding.updateTheme({ projectId: project.id, themeId: theme.id, primary_color: '#ff0000' }),
      () => b.branding.deleteTheme({ projectId: project.id, themeId: theme.id }),
      () => b.branding.activate({ projectId: project.id, themeId: theme.id }),
      () => b.branding.deactivate({ projectId: project.id }),
    ];
    // One after the other: each refusal is awaited as it comes, none left unhandled meanwhile.
    for (const call of calls) expect((await rejection(call()))?.code).toMatch(/^(FORBIDDEN|NOT_FOUND)$/);
    expect(await a.branding.get({ projectId: project.id })).toEqual(before);
  });
});

import { expect, test, type Page } from './fixtures';
import { createProject, newUser, register, withoutFirstAnswers } from './support';

interface Timing {
  ms: number;
  /** Animation frames in which the main area had no page heading. */
  blankFrames: number;
  /** Animation frames in which the sidebar was missing. */
  framelessFrames: number;
}

/**
 * Clicks an element and answers the time until the heading reads `heading` in a painted frame,
 * watching every frame in between: was the main area ever without a heading, the sidebar ever gone?
 */
async function timeClick(page: Page, selector: string, heading: string): Promise<Timing> {
  return page.evaluate(
    ({ selector, heading }) =>
      new Promise<Timing>((resolve, reject) => {
        const target = document.querySelector<HTMLElement>(selector);
        if (!target) return reject(new Error(`No ${selector}`));
        let blankFrames = 0;
        let framelessFrames = 0;
        const start = performance.now();
        target.click();
        const frame = () => {
          const h1 = document.querySelector('main h1');
          if (!document.querySelector('[data-testid="sidebar"]')) framelessFrames += 1;
          if (h1?.textContent === heading) {
            // The next frame is the first one painted with the heading.
            requestAnimationFrame(() => resolve({ ms: Math.round(performance.now() - start), blankFrames, framelessFrames }));
            return;
          }
          if (!h1) blankFrames += 1;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    { selector, heading },
  );
}

test('pages paint without a blank main area, the frame stays while a project loads', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, newUser('speedy'));
  const alpha = await createProject(page, 'Alpha');
  const beta = await createProject(page, 'Beta');
  await page.goto(`/projects/${beta}/get-started`);
  await expect(page.getByTestId('project-name')).toHaveText('Beta');

  const settings = await timeClick(page, '[data-testid="nav-project-settings"]', 'Project settings');
  const identities = await timeClick(page, '[data-testid="nav-identities"]', 'Identities');
  const home = await timeClick(page, '[data-testid="nav-get-started"]', 'Beta');
  const settingsAgain = await timeClick(page, '[data-testid="nav-project-settings"]', 'Project settings');
  const identitiesAgain = await timeClick(page, '[data-testid="nav-identities"]', 'Identities');
  const figures = { settings, identities, home, settingsAgain, identitiesAgain };

  // A page whose code is in never leaves the main area without a heading, first visit or not.
  for (const [name, timing] of Object.entries(figures)) {
    expect(timing.blankFrames, name).toBe(0);
    expect(timing.framelessFrames, name).toBe(0);
  }

  // Switching project: the frame (sidebar) stays on screen while the other project loads.
  await page.getByTestId('project-switcher').click();
  await page.getByTestId('project-switcher-option').filter({ hasText: 'Alpha' }).hover();
  const switched = await timeClick(page, '[data-testid="project-switcher-option"][data-value="' + alpha + '"]', 'Alpha');
  expect(switched.framelessFrames).toBe(0);
  await expect(page).toHaveURL(new RegExp(`/projects/${alpha}/get-started$`));

  const line = Object.entries({ ...figures, switchProject: switched })
    .map(([name, t]) => `${name}: ${t.ms} ms (frames without heading: ${t.blankFrames})`)
    .join('; ');
  test.info().annotations.push({ type: 'click-to-painted-heading', description: line });
  console.log(`click to painted heading — ${line}`);
});

test('hashed assets are served compressed and cached for good; the app shell is asked for again each time', async ({ request }) => {
  const shell = await request.get('/projects', { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } });
  expect(shell.status()).toBe(200);
  expect(shell.headers()['cache-control']).toBe('no-cache');
  expect(shell.headers()['cache-control']).not.toContain('immutable');
  const root = await request.get('/', { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } });
  expect(root.headers()['cache-control']).toBe('no-cache');

  const html = await shell.text();
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  expect(assets.length, html).toBeGreaterThan(1);
  let compressed = 0;
  for (const asset of assets) {
    const plain = await request.get(asset, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers()['content-encoding'], asset).toBeUndefined();
    expect(plain.headers()['cache-control'], asset).toBe('public, max-age=31536000, immutable');
    // A file of a few hundred bytes fits in one packet either way: the build leaves it as it is.
    if ((await plain.body()).length < 512) continue;
    compressed += 1;
    const br = await request.get(asset, { headers: { 'accept-encoding': 'br, gzip' } });
    const gz = await request.get(asset, { headers: { 'accept-encoding': 'gzip' } });
    for (const [res, encoding] of [
      [br, 'br'],
      [gz, 'gzip'],
    ] as const) {
      expect(res.status(), asset).toBe(200);
      expect(res.headers()['content-encoding'], asset).toBe(encoding);
      expect(res.headers()['cache-control'], asset).toBe('public, max-age=31536000, immutable');
      expect(res.headers()['vary'], asset).toContain('accept-encoding');
      expect(res.headers()['content-type'], asset).toMatch(asset.endsWith('.js') ? /javascript/ : /text\/css/);
      // The client decodes the body: it is the very file, byte for byte.
      expect((await res.body()).equals(await plain.body()), asset).toBe(true);
    }
  }
  expect(compressed).toBeGreaterThan(1);
});

test('a page opened by URL shows with the data its HTML carried, asking nothing first; without it, asks all at once; other pages load only after', async ({ page }) => {
  await register(page, newUser('prefetch'));
  const project = await createProject(page, 'Prefetch');

  const fresh = await page.context().browser()!.newContext({ baseURL: new URL(page.url()).origin });
  await fresh.addCookies(await page.context().cookies());
  const tab = await fresh.newPage();
  const procedures = (url: string) => decodeURIComponent(new URL(url).pathname.split('/api/trpc/')[1] ?? '').split(',');

  // The HTML carries the session, the frame's queries and the page's own: the page shows whole, its list
  // read, without a single API request before it.
  const asked: string[] = [];
  tab.on('request', (req) => {
    if (req.url().includes('/api/trpc/')) asked.push(...procedures(req.url()));
  });
  await tab.goto(`/projects/${project}/identities`);
  await expect(tab.getByRole('heading', { level: 1, name: 'Identities' })).toBeVisible();
  await expect(tab.getByTestId('identities-page').getByTestId('empty-state')).toBeVisible();
  await expect(tab.getByTestId('project-switcher')).toContainText('Prefetch');
  const shownAfter = [...asked];
  expect(shownAfter.filter((p) => ['auth.session', 'projects.get', 'projects.list', 'workspaces.list', 'identities.list', 'identities.schemas'].includes(p))).toEqual([]);

  // Without the answers (the server could not give them in time), the page asks for them itself: in a
  // browser context of its own, so nothing the first page still does is counted.
  const without = await page.context().browser()!.newContext({ baseURL: new URL(page.url()).origin });
  await without.addCookies(await page.context().cookies());
  await withoutFirstAnswers(without);
  const bare = await without.newPage();
  const events: { kind: 'request' | 'response'; url: string }[] = [];
  // The session's answer is held until the page has asked for its data: on a busy machine the session can
  // answer before the route's code has even loaded, which says nothing about chains. A page that waited on the
  // session before asking would never get its answer, and never show its heading below.
  let dataAsked!: () => void;
  const dataRequest = new Promise<void>((resolve) => (dataAsked = resolve));
  await bare.route(/\/api\/trpc\/auth\.session(\?|$)/, async (route) => {
    const response = await route.fetch();
    await dataRequest;
    await route.fulfill({ response });
  });
  bare.on('request', (req) => {
    if (req.url().includes('/api/trpc/') && decodeURIComponent(req.url()).includes('identities.list')) dataAsked();
  });
  bare.on('request', (req) => events.push({ kind: 'request', url: req.url() }));
  bare.on('requestfinished', (req) => events.push({ kind: 'response', url: req.url() }));
  await bare.goto(`/projects/${project}/identities`);
  await expect(bare.getByRole('heading', { level: 1, name: 'Identities' })).toBeVisible();
  await expect(bare.getByTestId('identities-page').getByTestId('empty-state')).toBeVisible();

  const api = events.filter((e) => e.kind === 'request' && e.url.includes('/api/trpc/'));
  // The session goes alone (the frame waits on it, never on a slow list); the project and the page's own
  // list follow at once, asked before the session has answered: no chain of round trips.
  expect(procedures(api[0]!.url)).toEqual(['auth.session']);
  expect(procedures(api[1]!.url)).toEqual(expect.arrayContaining(['projects.get', 'identities.list']));
  const sessionAnswered = events.findIndex((e) => e.kind === 'response' && e.url === api[0]!.url);
  expect(events.findIndex((e) => e.kind === 'request' && e.url === api[1]!.url)).toBeLessThan(sessionAnswered);
  // The page's list, once fetched ahead, is not fetched again when the page mounts.
  const lists = api.filter((e) => decodeURIComponent(e.url).includes('identities.list'));
  expect(lists).toHaveLength(1);

  // Other pages' code waits until the page has its data.
  const firstAnswer = events.findIndex((e) => e.kind === 'response' && e.url === api[1]!.url);
  const otherPages = events.filter((e, i) => e.kind === 'request' && /\/assets\/[A-Za-z]+Page-[^/]+\.js$/.test(e.url) && !e.url.includes('/IdentitiesPage-') && i < firstAnswer);
  expect(otherPages.map((e) => e.url)).toEqual([]);
  await fresh.close();
  await without.close();
});

import { expect, test, type Page, type Route } from './fixtures';
import { CODE_AFTER_PAINT_ELEMENT_ID } from '../shared/code-after-paint';
import { FIRST_DATA_ELEMENT_ID } from '../shared/first-queries';
import { READER_ZONE_COOKIE } from '../shared/reader-zone';
import { createProject, createWorkspace, newUser, register } from './support';

/**
 * Holds back every script of the console on `page` until the answer's `release` is called, so that what shows is
 * the server's paint alone; `held` lists the scripts asked for meanwhile.
 */
async function holdScripts(page: Page): Promise<{ release: () => void; held: Route[] }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: Route[] = [];
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    held.push(route);
    await released;
    // A script of a document opened again (openPainted) is no longer wanted.
    await route.continue().catch(() => undefined);
  });
  return { release, held };
}

/**
 * Opens `path` until the server sends it painted: it paints a page only with every first answer in within its
 * wait (`FIRST_ANSWERS_WAIT_MS`, 800 ms by default), so on a busy machine a visit can miss it, and that page is
 * sent unpainted, as it should be.
 */
async function openPainted(page: Page, path: string): Promise<void> {
  await expect(async () => {
    const response = await page.goto(path, { waitUntil: 'commit' });
    const html = await response!.text();
    expect(html).toContain('<div id="root" inert>');
    // Its code is named for after its first frame (shared/code-after-paint.ts), not in its head.
    expect(html).toContain(`<script type="application/json" id="${CODE_AFTER_PAINT_ELEMENT_ID}">`);
    expect(html.split('</head>')[0]).not.toContain('<script type="module"');
  }).toPass({ timeout: 60_000 });
}

test('a page opened by URL shows before its code has run, in the chosen theme, inert until the console takes its place', async ({ page, browser }) => {
  await register(page, newUser('painted'));
  const project = await createProject(page, 'Painted');
  // Once as usual: the server's first render of a page loads that page's code (once per page, per server).
  await page.goto(`/projects/${project}/identities`);
  await expect(page.getByRole('heading', { level: 1, name: 'Identities' })).toBeVisible();

  const context = await browser.newContext({ baseURL: new URL(page.url()).origin });
  await context.addCookies(await page.context().cookies());
  // The user chose the dark theme in an earlier visit.
  await context.addInitScript(() => window.localStorage.setItem('console-theme', 'dark'));
  const tab = await context.newPage();
  const errors: string[] = [];
  tab.on('pageerror', (error) => errors.push(String(error)));
  tab.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });

  // Every script of the console is held back: what shows is the server's paint alone.
  const { release, held } = await holdScripts(tab);
  await openPainted(tab, `/projects/${project}/identities`);

  const heading = tab.getByRole('heading', { level: 1, name: 'Identities' });
  await expect(heading).toBeVisible();
  await expect(tab.getByTestId('identities-page').getByTestId('empty-state')).toBeVisible();
  await expect(tab.getByTestId('project-switcher')).toContainText('Painted');
  // The painted page asks for its code after its first frame, and is held back meanwhile.
  await expect.poll(() => held.length).toBeGreaterThan(0);
  // In the dark theme from the first frame, and not yet live: nothing on it can be used.
  await expect(tab.locator('html')).toHaveAttribute('data-theme', 'dark');
  const background = await tab.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const [r = 255, g = 255, b = 255] = (background.match(/\d+/g) ?? []).map(Number);
  expect(background).not.toBe('rgba(0, 0, 0, 0)');
  expect(r + g + b, background).toBeLessThan(3 * 80);
  await expect(tab.locator('#root')).toHaveAttribute('inert', '');
  const paintedBox = await heading.boundingBox();

  // The code arrives: the console's own render takes the painted page's place, where it was, and it is live.
  release();
  await expect(tab.locator('#root')).not.toHaveAttribute('inert');
  await expect(heading).toBeVisible();
  expect(await heading.boundingBox()).toEqual(paintedBox);
  await tab.getByTestId('nav-project-settings').click();
  await expect(tab.getByRole('heading', { level: 1, name: 'Project settings' })).toBeVisible();
  await expect(tab).toHaveURL(new RegExp(`/projects/${project}/settings$`));
  expect(errors).toEqual([]);
  await context.close();
});

test('a refusal the page meets itself is painted with the page, and the console does not ask it again', async ({ page }) => {
  await register(page, newUser('refused'));
  const project = await createProject(page, 'Own billing');
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/trpc/')) asked.push(decodeURIComponent(new URL(request.url()).pathname));
  });
  const { release } = await holdScripts(page);
  // A new project has no subscription yet ('Project has no subscription'): its billing page says so, with the plans.
  await openPainted(page, `/projects/${project}/settings/billing`);
  const card = page.getByTestId('billing-no-subscription');
  await expect(card).toContainText('Project has no subscription');
  await expect(page.getByTestId('plan-card-production')).toBeVisible();
  await expect(page.locator('#root')).toHaveAttribute('inert', '');

  release();
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  await expect(card).toContainText('Project has no subscription');
  // Live: choosing a plan works at once.
  await page.getByTestId('plan-card-production').click();
  await expect(page.getByTestId('plan-change-open')).toBeEnabled();
  // The page met that answer in its HTML: the console asks for the subscription again neither to paint nor to mount.
  expect(asked.filter((path) => path.includes('billing.getSubscription'))).toEqual([]);
});

test("a painted page writes its dates in the reader's time zone, so nothing changes when the console takes it over", async ({ browser, baseURL }) => {
  // A reader whose calendar day differs from the server's now: UTC+14 or UTC-11, whichever is not on the server's day.
  const day = (timeZone: string, at = new Date()) => new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'short', day: 'numeric' }).format(at);
  const serverZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zone = ['Pacific/Kiritimati', 'Pacific/Pago_Pago'].find((candidate) => day(candidate) !== day(serverZone))!;
  const context = await browser.newContext({ baseURL, timezoneId: zone });
  const page = await context.newPage();
  await register(page, newUser('zoned'));
  await createWorkspace(page, 'Zoned workspace');
  // The console named the browser's zone to the server.
  expect((await context.cookies()).find((c) => c.name === READER_ZONE_COOKIE)?.value).toBe(encodeURIComponent(zone));

  const { release } = await holdScripts(page);
  await openPainted(page, '/workspaces');
  const created = page.getByRole('row', { name: /Zoned workspace/ }).getByRole('cell').last();
  await expect(created).toBeVisible();
  const painted = await created.textContent();
  // The workspace's creation time, as the HTML carries it for the console.
  const createdAt = await page.evaluate((elementId) => {
    const find = (value: unknown): string | undefined => {
      if (Array.isArray(value)) return value.map(find).find(Boolean);
      if (value && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        if (record['name'] === 'Zoned workspace' && typeof record['created_at'] === 'string') return record['created_at'];
        return Object.values(record).map(find).find(Boolean);
      }
      return undefined;
    };
    return find(JSON.parse(document.getElementById(elementId)?.textContent ?? '[]'));
  }, FIRST_DATA_ELEMENT_ID);
  expect(createdAt).toBeTruthy();
  expect(painted).toBe(day(zone, new Date(createdAt!)));

  release();
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
  await expect(created).toHaveText(painted!);
  await context.close();
});

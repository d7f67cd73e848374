import { expect, test, type Route } from '@playwright/test';
import { createProject, newUser, register } from './support';

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
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const held: Route[] = [];
  await tab.route(/\/assets\/.+\.js$/, async (route) => {
    held.push(route);
    await released;
    // A script of a document opened again below is no longer wanted.
    await route.continue().catch(() => undefined);
  });
  // The server paints a page only with every first answer in within its deadline (800 ms): on a busy machine a
  // visit can miss it, and that page is sent unpainted, as it should be. Opened again until one is painted.
  await expect(async () => {
    const response = await tab.goto(`/projects/${project}/identities`, { waitUntil: 'commit' });
    expect(await response!.text()).toContain('<div id="root" inert>');
  }).toPass({ timeout: 60_000 });

  const heading = tab.getByRole('heading', { level: 1, name: 'Identities' });
  await expect(heading).toBeVisible();
  await expect(tab.getByTestId('identities-page').getByTestId('empty-state')).toBeVisible();
  await expect(tab.getByTestId('project-switcher')).toContainText('Painted');
  expect(held.length).toBeGreaterThan(0);
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

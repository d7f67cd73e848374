import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, expectNoA11yViolations, newUser, register, withoutFirstAnswers } from './support';

/** Where a project of the embedded local stack answers. */
const projectApiUrl = (slug: string) => `${E2E_LOCALSTACK_URL}/project-api/${slug}`;

const MISSING_WORKSPACE = '00000000-0000-4000-8000-000000000000';

test('lists show a skeleton while loading, a sentence and the primary action when empty', async ({ page }) => {
  await register(page, newUser('states'));

  // Hold the project list: the skeleton shows (after the grace period), then the empty state. The page's
  // HTML would carry the list already: it comes without it here, as when the server could not answer in time.
  await withoutFirstAnswers(page);
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith('/api/trpc/') && url.pathname.includes('projects.list'),
    async (route) => {
      await released;
      await route.continue();
    },
  );
  await page.goto('/projects');
  await expect(page.getByTestId('skeleton')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading' }).first()).toBeAttached();
  await expectNoA11yViolations(page, 'projects (loading)');
  release();
  const empty = page.getByTestId('projects-empty');
  await expect(empty).toBeVisible();
  await expect(page.getByTestId('skeleton')).toHaveCount(0);
  await expect(empty).toContainText('Create your first project');
  await expect(empty.getByRole('link', { name: 'Create project' })).toBeVisible();
  await page.unroute((url) => url.pathname.includes('projects.list'));

  await page.goto('/workspaces');
  await expect(page.getByTestId('workspaces-empty')).toContainText('Workspaces group projects');
  await expect(page.getByTestId('workspaces-empty').getByRole('link', { name: 'Create workspace' })).toBeVisible();
});

test('a missing workspace fails at once (no retries on 4xx) with the reason and no retry button', async ({ page }) => {
  await register(page, newUser('missing'));
  let calls = 0;
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/trpc/') && request.url().includes('workspaces.get')) calls += 1;
  });

  await page.goto(`/workspaces/${MISSING_WORKSPACE}/settings`);
  const error = page.getByTestId('error-state');
  // Retried, the first answer would take 1 + 2 + 4 s to show; not retried it shows well inside 3 s.
  await expect(error).toBeVisible({ timeout: 3_000 });
  await expect(error).toContainText('This workspace could not be loaded');
  await expect(error).toContainText(`Workspace ${MISSING_WORKSPACE} does not exist.`);
  // The page and the breadcrumb share the query; a retry chain would also mean 4 calls per observer.
  expect(calls).toBeLessThanOrEqual(2);
  await expectNoA11yViolations(page, 'workspace settings (error)');

  // A workspace that does not exist will not exist on a second try: no "Try again".
  await expect(error.getByTestId('retry-button')).toHaveCount(0);
});

test('the Get started page: endpoint and hosted sign-in with copy buttons, SDK tabs, checklist; a 255-character name stays inside the layout', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await register(page, newUser('guide'));
  const longName = `${`Long ${'name '.repeat(60)}`.slice(0, 254)}Z`;
  const projectId = await createProject(page, longName);

  const endpoint = page.getByTestId('api-endpoint-value');
  const slug = (await page.getByTestId('slug-value').textContent()) ?? '';
  expect(slug).not.toBe('');
  await expect(endpoint).toHaveText(projectApiUrl(slug));
  // The endpoint shown is where the project answers: its whoami says nobody is signed in.
  expect((await page.request.get(`${projectApiUrl(slug)}/sessions/whoami`)).status()).toBe(401);
  // The hosted sign-in and sign-up pages are the project's own, under its endpoint.
  await expect(page.getByTestId('hosted-login-link')).toHaveAttribute('href', `${projectApiUrl(slug)}/ui/login`);
  await expect(page.getByTestId('hosted-registration-link')).toHaveAttribute('href', `${projectApiUrl(slug)}/ui/registration`);

  await page.getByTestId('api-endpoint-copy').click();
  await expect(page.getByTestId('api-endpoint-copy')).toHaveAttribute('data-copied', 'true');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(projectApiUrl(slug));
  await page.getByTestId('id-copy').click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(projectId);

  // SDK snippets in tabs, by keyboard.
  const tabs = page.getByRole('tablist', { name: 'SDK examples' });
  await expect(tabs.getByRole('tab', { name: 'TypeScript' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toContainText(projectApiUrl(slug));
  await tabs.getByRole('tab', { name: 'TypeScript' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.getByRole('tab', { name: 'Go' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toContainText('client-go');
  await tabs.getByRole('tab', { name: 'curl' }).click();
  await expect(page.getByRole('tabpanel')).toContainText(`${projectApiUrl(slug)}/sessions/whoami`);

  // A new project has done none of the steps: each is read from the project, none is ticked.
  await expect(page.getByTestId('checklist-item')).toHaveCount(4);
  await expect(page.locator('[data-testid="checklist-item"][data-done="false"]')).toHaveCount(4);
  await expect(page.getByTestId('checklist-progress')).toContainText('0 of 4 steps done');
  await expect(page.getByRole('link', { name: 'Open the hosted sign-up page' })).toHaveAttribute('href', `${projectApiUrl(slug)}/ui/registration`);
  expect(await page.locator('main a[href*="oryapis.com"]').count()).toBe(0);

  // The long name is cut, never wider than the page; its whole text is in a tooltip.
  const heading = page.getByTestId('page-title');
  const viewport = page.viewportSize();
  const box = await heading.boundingBox();
  expect(box && viewport && box.x + box.width <= viewport.width).toBeTruthy();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectNoA11yViolations(page, 'get started');

  const nameCell = page.getByTestId('project-name').locator('[data-truncated]');
  // In view first: Radix closes a tooltip when the page scrolls under it (a late scroll on a busy machine
  // can still close it, so the keyboard user's focus is given again until the tooltip shows).
  await nameCell.scrollIntoViewIfNeeded();
  await expect(async () => {
    await nameCell.blur();
    await nameCell.focus();
    await expect(page.getByTestId('tooltip')).toContainText(longName, { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });

  await page.goto('/projects');
  await expect(page.getByTestId('project-link')).toHaveText(longName);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const link = await page.getByTestId('project-link').boundingBox();
  expect(link && viewport && link.x + link.width <= viewport.width).toBeTruthy();
  await expectNoA11yViolations(page, 'projects (long name)');
});

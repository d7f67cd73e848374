import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures';
import { EXTERNAL_LINKS } from '../shared/external-links';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, expectNoA11yViolations, expectNoA11yViolationsInBothThemes, expectNoHorizontalScroll, newUser, registerByApi } from './support';

const VERSION = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const MISSING_PROJECT = '00000000-0000-4000-8000-00000000c0de';

test('Connect shows the project’s base URL and a copyable snippet per framework; Support links out, shows the version and copies a report without personal data', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const user = newUser('connect');
  await registerByApi(page, user);
  const projectId = await createProject(page, 'Connected app');
  // The base URL is the one the Get started page resolves for the project.
  const shown = page.getByTestId('project-connect').getByTestId('api-endpoint-value');
  await expect(shown).toHaveText(new RegExp(`^${E2E_LOCALSTACK_URL.replace(/[.]/g, '\\.')}/project-api/[a-z0-9-]+$`));
  const endpoint = (await shown.textContent()) ?? '';
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  // Connect: the base URL, the install command and the snippet of the chosen framework, each copied as shown.
  await page.getByTestId('nav-connect').click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/connect$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Connect');
  await expect(page.getByTestId('connect-base-url-value')).toHaveText(endpoint);
  await page.getByTestId('connect-base-url-copy').click();
  await expect.poll(clipboard).toBe(endpoint);
  const picker = page.getByRole('tablist', { name: 'Framework' });
  await expect(picker.getByRole('tab')).toHaveText(['TypeScript / Node', 'React', 'Next.js', 'Go', 'cURL']);
  await expect(page.getByTestId('connect-install-typescript')).toHaveText('npm install @ory/client');
  await page.getByTestId('connect-install-typescript-copy').click();
  await expect.poll(clipboard).toBe('npm install @ory/client');
  // By keyboard to Go: its own install command, and its snippet calls the project.
  await picker.getByRole('tab', { name: 'TypeScript / Node' }).focus();
  // One key at a time: the tab list moves focus after each key is handled.
  for (const name of ['React', 'Next.js', 'Go']) {
    await page.keyboard.press('ArrowRight');
    await expect(picker.getByRole('tab', { name, exact: true })).toBeFocused();
  }
  await expect(picker.getByRole('tab', { name: 'Go' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('connect-install-go')).toHaveText('go get github.com/ory/client-go');
  const goSnippet = page.getByTestId('connect-snippet-go');
  await expect(goSnippet).toContainText(`{{URL: "${endpoint}"}}`);
  await page.getByTestId('connect-snippet-go-copy').click();
  await expect.poll(clipboard).toBe((await goSnippet.textContent()) ?? '');
  await expectNoA11yViolationsInBothThemes(page, '/projects/:project/connect');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await page.setViewportSize({ width: 1280, height: 800 });

  // A failed call: the console opens a project that does not exist (in the app, so the client keeps its record).
  await page.evaluate((id) => {
    history.pushState(null, '', `/projects/${id}/get-started`);
    dispatchEvent(new PopStateEvent('popstate'));
  }, MISSING_PROJECT);
  // It is refused, and the console goes back to the project list.
  await expect(page).toHaveURL(/\/projects$/);

  // Support, from the help menu: links, the version, and the report.
  await page.getByTestId('help-menu').click();
  await page.getByTestId('help-menu-content').getByTestId('help-support').click();
  await expect(page).toHaveURL(/\/support$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support');
  for (const id of ['docs', 'status', 'contact'] as const) {
    await expect(page.getByTestId(`support-${id}`)).toHaveAttribute('href', EXTERNAL_LINKS[id]);
    await expect(page.getByTestId(`support-${id}`)).toHaveAttribute('target', '_blank');
  }
  await expect(page.getByTestId('console-version')).toHaveText(VERSION);
  const report = page.getByTestId('diagnostics-report');
  await expect(report).toContainText(`Console version: ${VERSION}`);
  await expect(report).toContainText(`Project: ${projectId} (environment: dev)`);
  await expect(report).toContainText(/Browser: Mozilla\/5\.0/);
  await expect(report).toContainText(/Time: \d{4}-\d\d-\d\dT/);
  await expect(report).toContainText(/projects\.get\s+(NOT_FOUND|FORBIDDEN) \(40[34]\)/);
  await page.getByTestId('diagnostics-copy').click();
  await expect.poll(clipboard).toBe((await report.textContent()) ?? '');
  const copied = await clipboard();
  expect(copied).not.toContain(user.email);
  expect(copied).not.toContain('@');
  for (const cookie of await context.cookies()) if (cookie.value.length >= 16) expect(copied, cookie.name).not.toContain(cookie.value);
  await expectNoA11yViolations(page, '/support');
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
});

test('the guided tour ticks off each step from what really exists, wherever the step was done', async ({ page }) => {
  await registerByApi(page, newUser('tour'));
  const steps = page.getByTestId('tour-steps');
  const done = (id: string) => steps.locator(`[data-step="${id}"]`);

  // Before any project: nothing is done, and the next step links to where it is done.
  await page.goto('/get-started');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Guided tour');
  await expect(page.getByTestId('checklist-progress')).toContainText('0 of 5 steps done');
  await expect(done('project')).toHaveAttribute('data-done', 'false');
  await expect(done('project').getByRole('link', { name: 'Create a project' })).toHaveAttribute('href', '/projects/create');
  await expect(done('identity')).toContainText('Create a project first');

  // A project, and an end user signing up and in through the project's own API, outside the console.
  const projectId = await createProject(page, 'Toured');
  const shown = page.getByTestId('project-connect').getByTestId('api-endpoint-value');
  await expect(shown).toHaveText(/\/project-api\/[a-z0-9-]+$/);
  const endpoint = (await shown.textContent()) ?? '';
  const flow = (await (await page.request.get(`${endpoint}/self-service/registration/api`)).json()) as { id: string };
  const signedUp = await page.request.post(`${endpoint}/self-service/registration?flow=${flow.id}`, {
    data: { method: 'password', password: 'a-Long-and-unusual-passw0rd', traits: { email: 'toured-end-user@example.com', name: 'End User' } },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(200);

  // Back on the tour: three steps done, read from the project.
  await page.goto('/get-started');
  await expect(page.getByTestId('checklist-progress')).toContainText('3 of 5 steps done');
  for (const id of ['project', 'identity', 'sign-in']) await expect(done(id)).toHaveAttribute('data-done', 'true');
  for (const id of ['oauth2-client', 'teammate']) await expect(done(id)).toHaveAttribute('data-done', 'false');
  await expectNoA11yViolations(page, '/get-started');

  // The next step's link leads to where it is done.
  await done('oauth2-client').getByRole('link', { name: 'Go to OAuth2 clients' }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/oauth$`));
});

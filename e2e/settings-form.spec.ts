import { expect, test, type Page } from './fixtures';
import { PROJECT_CONFLICT_MESSAGE } from '../client/src/pages/projects/project-settings-form';
import { E2E_LOCALSTACK_URL } from './ports';
import { cookieHeader, createProject, expectNoA11yViolations, newUser, patchProjectUpstream, readProjectUpstream, registerByApi, setProjectPlan } from './support';

/** Counts the project-rename calls the page sends to the BFF. */
function countRenames(page: Page): { readonly count: number } {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.startsWith('/api/trpc/') && request.url().includes('projects.update')) seen.count += 1;
  });
  return seen;
}

test('project settings: a field the form never shows survives, a double click saves once, a stale revision reloads', async ({ page }) => {
  await registerByApi(page, newUser('settings'));
  const projectId = await createProject(page, 'Keeper');

  // A revision field the settings page does not render, set from elsewhere.
  await patchProjectUpstream(page, projectId, [{ op: 'add', path: '/kratos_courier_smtp_from_name', value: 'Keeper Support' }]);

  await page.goto(`/projects/${projectId}/settings`);
  const name = page.getByTestId('project-name-input');
  const save = page.getByTestId('project-settings-submit');
  const discard = page.getByTestId('project-settings-discard');
  await expect(name).toHaveValue('Keeper');
  await expect(save).toBeDisabled();
  await expect(discard).toBeDisabled();
  await expectNoA11yViolations(page, 'project settings');

  // Required in the browser first: nothing is sent for an empty name.
  const renames = countRenames(page);
  await name.fill('   ');
  await save.click();
  await expect(page.getByText('Project name is required')).toBeVisible();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  expect(renames.count).toBe(0);

  // Discard restores the saved value.
  await discard.click();
  await expect(name).toHaveValue('Keeper');
  await expect(save).toBeDisabled();

  // A double click sends one request.
  await name.fill('Keeper Prime');
  await save.dblclick();
  await expect(page.getByTestId('toast-success')).toHaveText('Project renamed');
  await expect(save).toBeDisabled();
  expect(renames.count).toBe(1);
  await expect(page.getByTestId('toast-error')).toHaveCount(0);

  // The rename kept the field the form never showed.
  const afterRename = await readProjectUpstream(page, projectId);
  expect(afterRename.current_revision.name).toBe('Keeper Prime');
  expect(afterRename.current_revision.kratos_courier_smtp_from_name).toBe('Keeper Support');

  // Someone renames the project elsewhere while the form is open: the save hits a stale revision.
  await name.fill('Keeper Mine');
  await patchProjectUpstream(page, projectId, [{ op: 'replace', path: '/name', value: 'Keeper Theirs' }]);
  await save.click();
  await expect(page.getByTestId('project-settings-error')).toHaveText(PROJECT_CONFLICT_MESSAGE);
  await expect(name).toHaveValue('Keeper Mine');
  expect((await readProjectUpstream(page, projectId)).current_revision.name).toBe('Keeper Theirs');
  await expectNoA11yViolations(page, 'project settings (conflict)');

  // The form now stands on the latest revision: saving again goes through. The first rename's toast may
  // still be up on a slow run, so it is let go first and the new one is the only one.
  const renamedToast = page.getByTestId('toast-success').filter({ hasText: 'Project renamed' });
  await expect(renamedToast).toHaveCount(0);
  await save.click();
  await expect(renamedToast).toHaveCount(1);
  const final = await readProjectUpstream(page, projectId);
  expect(final.current_revision.name).toBe('Keeper Mine');
  expect(final.current_revision.kratos_courier_smtp_from_name).toBe('Keeper Support');
});

test('project settings: leaving with unsaved changes asks first (links, back button, closing the tab)', async ({ page }) => {
  await registerByApi(page, newUser('leaver'));
  const projectId = await createProject(page, 'Wanderer');
  // In-app, so the way back is a history entry of this page (popstate), not a page load.
  await page.getByTestId('project-settings-link').click();
  const name = page.getByTestId('project-name-input');
  const ask = page.getByTestId('unsaved-changes-dialog');
  await name.fill('Wanderer Two');

  // An in-app link: the question comes first; staying keeps the page and what was typed.
  await page.getByRole('link', { name: 'Get started' }).first().click();
  await expect(ask).toBeVisible();
  await expect(page.getByRole('alertdialog', { name: 'Leave without saving?' })).toBeVisible();
  await expect(ask.getByTestId('cancel-button')).toBeFocused();
  await expectNoA11yViolations(page, 'unsaved-changes question');
  await ask.getByTestId('cancel-button').click();
  await expect(ask).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/settings$`));
  await expect(name).toHaveValue('Wanderer Two');

  // The browser's back button: the address is put back while the question is open.
  await page.evaluate(() => window.history.back());
  await expect(ask).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/settings$`));
  await page.keyboard.press('Escape');
  await expect(ask).toBeHidden();
  await expect(name).toHaveValue('Wanderer Two');

  // Closing the tab: the browser's own question; dismissing it keeps the page open.
  const beforeUnload = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await beforeUnload;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.dismiss();
  expect(page.isClosed()).toBe(false);
  await expect(name).toHaveValue('Wanderer Two');

  // Leaving for real discards the change.
  await page.evaluate(() => window.history.back());
  await expect(ask).toBeVisible();
  await ask.getByTestId('confirm-button').click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/get-started$`));
  await expect(page.getByTestId('project-name')).toHaveText('Wanderer');

  // Without changes nothing asks.
  await page.goto(`/projects/${projectId}/settings`);
  await expect(name).toHaveValue('Wanderer');
  await page.getByRole('link', { name: 'Get started' }).first().click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/get-started$`));
  await expect(ask).toBeHidden();
});

test('project settings: leaving production asks first and sends nothing when cancelled', async ({ page }) => {
  await registerByApi(page, newUser('prod'));
  // A production project needs a paid plan: the project's own subscription pays for it.
  const projectId = await createProject(page, 'Live', 'dev');
  await setProjectPlan(page, projectId, 'Production@0');
  const promoted = await page.request.put(`${E2E_LOCALSTACK_URL}/projects/${projectId}/environment`, {
    headers: { cookie: await cookieHeader(page) },
    data: { environment: 'prod' },
  });
  expect(promoted.status(), await promoted.text()).toBe(200);
  await page.goto(`/projects/${projectId}/settings`);
  const environment = page.getByTestId('project-environment-select');
  const confirm = page.getByTestId('project-settings-confirm');
  await expect(environment).toHaveValue('prod');

  await environment.selectOption('dev');
  await page.getByTestId('project-settings-submit').click();
  await expect(confirm).toBeVisible();
  await expect(confirm).toContainText('Live is a Production project');
  await expectNoA11yViolations(page, 'environment change question');
  await confirm.getByTestId('cancel-button').click();
  await expect(confirm).toBeHidden();
  expect((await readProjectUpstream(page, projectId)).environment).toBe('prod');

  await page.getByTestId('project-settings-submit').click();
  await confirm.getByTestId('confirm-button').click();
  await expect(page.getByTestId('toast-success')).toHaveText('Environment updated');
  expect((await readProjectUpstream(page, projectId)).environment).toBe('dev');
});

test('workspace settings: two clicks faster than a render still rename once', async ({ page }) => {
  await registerByApi(page, newUser('wsrename'));
  await page.goto('/workspaces/create');
  await page.getByTestId('workspace-name-input').fill('Guild');
  await page.getByTestId('create-workspace-submit').click();
  await expect(page).toHaveURL(/\/workspaces\/[0-9a-f-]{36}$/);
  await page.goto(`${new URL(page.url()).pathname}/settings`);
  let updates = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('workspaces.update')) updates += 1;
  });
  const name = page.getByTestId('workspace-name-input');
  await expect(name).toHaveValue('Guild');
  await name.fill('Guild Hall');
  // Two clicks in one task, before the page can re-render and disable the button.
  await page.getByTestId('workspace-settings-submit').evaluate((button: HTMLButtonElement) => {
    button.click();
    button.click();
  });
  await expect(page.getByTestId('toast-success')).toHaveText('Workspace renamed');
  expect(updates).toBe(1);
  await expectNoA11yViolations(page, 'workspace settings');
});

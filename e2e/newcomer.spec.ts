import { expect, test } from './fixtures';
import { PROJECT_CONFLICT_MESSAGE } from '../client/src/pages/projects/project-settings-form';
import { expectNoA11yViolations, newUser, projectIdFromUrl, register } from './support';

test('a newcomer registers, creates a workspace and two projects, switches, renames and deletes', async ({ page }) => {
  // The longest journey (a dozen pages, each checked with axe): it takes 35 s on an idle machine, so the
  // default 60 s leaves no room on a loaded one.
  test.setTimeout(180_000);
  const user = newUser('newcomer');
  await page.goto('/registration');
  await expect(page.getByTestId('flow-input-traits.email')).toBeVisible();
  await expectNoA11yViolations(page, 'registration');
  await register(page, user);

  // No project yet: '/' leads to the project list with its empty state; the marker left the URL.
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByTestId('projects-empty')).toBeVisible();
  expect(page.url()).not.toContain('after-registration');
  expect(await page.evaluate(() => (window as Window & { dataLayer?: unknown[] }).dataLayer)).toContainEqual({ event: 'sign_up' });
  await expect(page).toHaveTitle('Projects · Console');
  await expectNoA11yViolations(page, 'projects (empty)');

  // A workspace.
  await page.getByTestId('nav-workspaces').click();
  await expect(page.getByTestId('workspaces-empty')).toBeVisible();
  await expectNoA11yViolations(page, 'workspaces (empty)');
  await page.getByTestId('workspaces-empty').getByTestId('create-workspace-button').click();
  await page.getByTestId('workspace-name-input').fill('Acme');
  await expectNoA11yViolations(page, 'workspace create');
  await page.getByTestId('create-workspace-submit').click();
  await expect(page).toHaveURL(/\/workspaces\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('page-title')).toHaveText('Acme');
  await expect(page.getByTestId('workspace-project-count')).toHaveText('0');
  await expectNoA11yViolations(page, 'workspace');

  // Rename it: Save stays disabled until the name changes.
  await page.getByTestId('nav-workspace-settings').click();
  await expect(page.getByTestId('workspace-name-input')).toHaveValue('Acme');
  await expect(page.getByTestId('workspace-settings-submit')).toBeDisabled();
  await expectNoA11yViolations(page, 'workspace settings');
  await page.getByTestId('workspace-name-input').fill('Acme Inc');
  await page.getByTestId('workspace-settings-submit').click();
  await expect(page.getByText('Workspace renamed')).toBeVisible();
  await expect(page.getByTestId('workspace-settings-submit')).toBeDisabled();
  await expect(page.getByTestId('workspace-switcher')).toContainText('Acme Inc');
  await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Overview' }).click();
  await expect(page.getByTestId('page-title')).toHaveText('Acme Inc');

  // A first project, in that workspace.
  await page.getByTestId('workspace-create-project').click();
  await expect(page.getByTestId('project-workspace-select')).toHaveValue(/[0-9a-f-]{36}/);
  await expectNoA11yViolations(page, 'project create');
  await page.getByTestId('project-name-input').fill('Alpha');
  await page.getByTestId('create-project-submit').click();
  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}\/get-started$/);
  await expect(page.getByTestId('project-name')).toHaveText('Alpha');
  const alphaId = projectIdFromUrl(page.url());
  await expectNoA11yViolations(page, 'project get-started');

  // A second project, from the project switcher.
  await page.getByTestId('project-switcher').click();
  await page.getByTestId('switcher-create-project').click();
  await page.getByTestId('project-name-input').fill('Beta');
  await page.getByTestId('project-environment-select').selectOption('stage');
  await page.getByTestId('create-project-submit').click();
  await expect(page.getByTestId('project-name')).toHaveText('Beta');
  await expect(page.getByTestId('project-environment')).toHaveText('Staging');
  const betaId = projectIdFromUrl(page.url());
  expect(betaId).not.toBe(alphaId);

  // Switch back to Alpha with the project switcher, by keyboard.
  const switcher = page.getByTestId('project-switcher');
  const listbox = page.getByRole('listbox', { name: 'Project' });
  const search = page.getByRole('combobox', { name: 'Project' });
  await switcher.focus();
  await page.keyboard.press('Enter');
  await expect(search).toBeFocused();
  await expect(switcher).toHaveAttribute('aria-expanded', 'true');
  await expectNoA11yViolations(page, 'project switcher (open)');
  // Escape closes and gives focus back; Tab reaches the footer link, and Escape from there too.
  await page.keyboard.press('Escape');
  await expect(listbox).toBeHidden();
  await expect(switcher).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(search).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('switcher-create-project')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(listbox).toBeHidden();
  await expect(switcher).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(search).toBeFocused();
  const names = await page.getByRole('option').allTextContents();
  const from = names.findIndex((n) => n.startsWith('Beta'));
  const to = names.findIndex((n) => n.startsWith('Alpha'));
  for (let i = 0; i < Math.abs(to - from); i += 1) await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/projects/${alphaId}/get-started$`));
  await expect(page.getByTestId('project-name')).toHaveText('Alpha');

  // Rename Alpha. Save stays disabled until the name changes; a failed save keeps what was typed.
  await page.getByTestId('nav-project-settings').click();
  const nameInput = page.getByTestId('project-name-input');
  await expect(nameInput).toHaveValue('Alpha');
  await expect(page.getByTestId('project-settings-submit')).toBeDisabled();
  await nameInput.fill('Alpha Prime');
  const conflict = 'The project was changed elsewhere: reload it and try again';
  await page.route('**/api/trpc/projects.update**', (route) =>
    route.fulfill({ status: 409, json: [{ error: { message: conflict, code: -32009, data: { code: 'CONFLICT', httpStatus: 409, path: 'projects.update' } } }] }),
  );
  await page.getByTestId('project-settings-submit').click();
  // A stale revision is said in plain words (not the upstream's text); the typed name stays.
  await expect(page.getByTestId('toast-error')).toContainText(PROJECT_CONFLICT_MESSAGE);
  await expect(page.getByRole('alert').filter({ hasText: PROJECT_CONFLICT_MESSAGE }).first()).toBeVisible();
  await expect(page.getByText(conflict)).toHaveCount(0);
  await expect(nameInput).toHaveValue('Alpha Prime');
  await page.unroute('**/api/trpc/projects.update**');
  await page.getByTestId('project-settings-submit').click();
  await expect(page.getByText('Project renamed')).toBeVisible();
  await expect(page.getByTestId('project-switcher')).toContainText('Alpha Prime');

  // Delete Beta: the confirm button stays disabled until the name is typed exactly.
  await page.goto(`/projects/${betaId}/settings`);
  const deleteButton = page.getByTestId('delete-project-button');
  const dialog = page.getByTestId('delete-project-dialog');
  // Escape closes the dialog and focus returns to the button that opened it.
  await deleteButton.click();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(deleteButton).toBeFocused();
  await deleteButton.click();
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expect(page.getByRole('dialog', { name: 'Delete this project?' })).toHaveAccessibleDescription('This permanently deletes Beta.');
  await expect(dialog.getByTestId('confirm-button')).toBeDisabled();
  await expect(dialog.getByTestId('confirm-input')).toBeFocused();
  await expectNoA11yViolations(page, 'project settings (delete dialog open)');
  await dialog.getByTestId('confirm-input').fill('Bet');
  await expect(dialog.getByTestId('confirm-button')).toBeDisabled();
  await dialog.getByTestId('confirm-input').fill('Beta');
  await dialog.getByTestId('confirm-button').click();
  await expect(page).toHaveURL(/\/projects$/);

  const links = page.getByTestId('project-link');
  await expect(links).toHaveText(['Alpha Prime']);
  await expect(page.getByTestId('project-group')).toContainText('Acme Inc');
  await expectNoA11yViolations(page, 'projects (filled)');

  await page.getByTestId('nav-workspaces').click();
  await expect(page.getByTestId('workspace-link')).toHaveText(['Acme Inc']);
  await expectNoA11yViolations(page, 'workspaces (filled)');
});

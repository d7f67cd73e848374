import { expect, test } from '@playwright/test';
import { newUser, projectIdFromUrl, register } from './support';

test('a newcomer registers, creates a workspace and two projects, switches, renames and deletes', async ({ page }) => {
  const user = newUser('newcomer');
  await register(page, user);

  // No project yet: '/' leads to the project list with its empty state; the marker left the URL.
  await expect(page).toHaveURL(/\/projects$/);
  await expect(page.getByTestId('projects-empty')).toBeVisible();
  expect(page.url()).not.toContain('after-registration');
  expect(await page.evaluate(() => (window as Window & { dataLayer?: unknown[] }).dataLayer)).toContainEqual({ event: 'sign_up' });

  // A workspace.
  await page.getByTestId('nav-workspaces').click();
  await expect(page.getByTestId('workspaces-empty')).toBeVisible();
  await page.getByTestId('workspaces-empty').getByTestId('create-workspace-button').click();
  await page.getByTestId('workspace-name-input').fill('Acme');
  await page.getByTestId('create-workspace-submit').click();
  await expect(page).toHaveURL(/\/workspaces\/[0-9a-f-]{36}$/);
  await expect(page.getByTestId('page-title')).toHaveText('Acme');

  // A first project, in that workspace.
  await page.getByTestId('workspace-create-project').click();
  await expect(page.getByTestId('project-workspace-select')).toHaveValue(/[0-9a-f-]{36}/);
  await page.getByTestId('project-name-input').fill('Alpha');
  await page.getByTestId('create-project-submit').click();
  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}\/get-started$/);
  await expect(page.getByTestId('project-name')).toHaveText('Alpha');
  const alphaId = projectIdFromUrl(page.url());

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
  await page.getByTestId('project-switcher').focus();
  await page.keyboard.press('Enter');
  const names = await page.getByRole('option').allTextContents();
  const from = names.findIndex((n) => n.startsWith('Beta'));
  const to = names.findIndex((n) => n.startsWith('Alpha'));
  for (let i = 0; i < Math.abs(to - from); i += 1) await page.keyboard.press(to > from ? 'ArrowDown' : 'ArrowUp');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/projects/${alphaId}/get-started$`));
  await expect(page.getByTestId('project-name')).toHaveText('Alpha');

  // Rename Alpha.
  await page.getByTestId('nav-project-settings').click();
  await page.getByTestId('rename-project-input').fill('Alpha Prime');
  await page.getByTestId('rename-project-submit').click();
  await expect(page.getByText('Project renamed')).toBeVisible();
  await expect(page.getByTestId('project-switcher')).toContainText('Alpha Prime');

  // Delete Beta: the confirm button stays disabled until the name is typed exactly.
  await page.goto(`/projects/${betaId}/settings`);
  await page.getByTestId('delete-project-button').click();
  const dialog = page.getByTestId('delete-project-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('confirm-button')).toBeDisabled();
  await dialog.getByTestId('confirm-input').fill('Bet');
  await expect(dialog.getByTestId('confirm-button')).toBeDisabled();
  await dialog.getByTestId('confirm-input').fill('Beta');
  await dialog.getByTestId('confirm-button').click();
  await expect(page).toHaveURL(/\/projects$/);

  const links = page.getByTestId('project-link');
  await expect(links).toHaveText(['Alpha Prime']);
  await expect(page.getByTestId('project-group')).toContainText('Acme');
});

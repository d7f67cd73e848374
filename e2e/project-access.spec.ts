import { expect, test } from '@playwright/test';
import { MESSAGES } from '../shared/messages';
import { newUser, register } from './support';

test('a project the user cannot open shows the access-failure toast and returns to the list', async ({ page }) => {
  await register(page, newUser('outsider'));
  await page.goto('/projects/00000000-0000-4000-8000-000000000000/get-started');
  await expect(page.getByTestId('toast-error')).toHaveText(MESSAGES.projectAccessFailure);
  await expect(page).toHaveURL(/\/projects$/);
});

import { expect, test } from './fixtures';
import { MESSAGES } from '../shared/messages';
import { newUser, registerByApi } from './support';

test('?after-recovery=true shows the saved-changes toast', async ({ page }) => {
  await registerByApi(page, newUser('recovered'));
  await page.goto('/projects?after-recovery=true');
  await expect(page.getByTestId('toast-success')).toHaveText(MESSAGES.afterRecovery);
  await expect(page.getByText('Your changes have been saved.')).toBeVisible();
});

import { expect, test } from './fixtures';
import { expectNoA11yViolationsInBothThemes, newUser, register } from './support';

test('recovery while signed in says so and leads to account settings instead of loading forever', async ({ page }) => {
  await register(page, newUser('signed-in-recovery'));
  const answered = page.waitForResponse((res) => res.url().includes('/self-service/recovery/browser'));
  await page.goto('/recovery');
  expect((await answered).status()).toBe(400);
  const notice = page.getByTestId('flow-notice-signed-in');
  await expect(notice).toContainText('You are already signed in');
  await expect(page.getByTestId('skeleton')).toHaveCount(0);
  await expect(page.getByText('Enter the email address of your account')).toHaveCount(0);
  await expectNoA11yViolationsInBothThemes(page, 'recovery while signed in');
  await notice.getByTestId('flow-notice-action').click();
  // The settings page starts its flow and may already carry its id.
  await expect(page).toHaveURL(/\/settings(\?flow=[0-9a-f-]+)?$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account settings');
});

import { expect, test } from './fixtures';
import { expectNoA11yViolations, newUser, register, verificationCode } from './support';

test('sign-up checks required fields in the browser, then says a code was sent; verifying shows in account settings', async ({ page }) => {
  // Required fields first: an empty form sends nothing.
  let submits = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/self-service/registration')) submits += 1;
  });
  await page.goto('/registration');
  const form = page.getByTestId('flow-form');
  await form.getByRole('button', { name: /sign up|register|create/i }).click();
  const email = form.getByTestId('flow-input-traits.email');
  expect(await email.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
  expect(submits).toBe(0);

  const user = newUser('verify');
  await register(page, user);
  expect(submits).toBe(1);

  // The banner after sign-up, with Verify now.
  const banner = page.getByTestId('verification-banner');
  await expect(banner).toContainText('We sent a verification code');
  await expect(banner).toContainText(user.email);
  await expectNoA11yViolations(page, 'projects with the verification banner');

  // Account settings say the address is not verified yet.
  await page.goto('/settings');
  await expect(page.getByTestId('email-verification-status')).toHaveText('Not verified');
  await expectNoA11yViolations(page, 'account settings (not verified)');

  await page.goto('/projects');
  await banner.getByTestId('verify-now').click();
  await expect(page).toHaveURL(/\/verification\?flow=/);
  await expect(page.getByTestId('back-to-console')).toHaveText('Back to Console');
  const code = page.getByTestId('flow-input-code');
  await expect(code).toBeVisible();
  await expectNoA11yViolations(page, 'verification (signed in)');
  await code.fill(await verificationCode(page, user.email));
  await page.getByTestId('flow-form').getByRole('button', { name: /submit|continue|verify/i }).first().click();
  await expect(page.getByTestId('verification-continue')).toBeVisible();

  await page.getByTestId('verification-continue').click();
  await expect(page.getByTestId('projects-empty')).toBeVisible();
  await expect(page.getByTestId('verification-banner')).toHaveCount(0);

  // A fresh load asks the server; its session look-ups are cached for a few seconds.
  const status = page.getByTestId('email-verification-status');
  await expect(async () => {
    await page.goto('/settings');
    await expect(status).toHaveText('Verified', { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByTestId('settings-verify-now')).toHaveCount(0);
});

test('the verification page, signed in, fills in the address and leads back to the Console', async ({ page }) => {
  const user = newUser('prefill');
  await register(page, user);
  await page.goto('/verification');
  await expect(page.getByTestId('flow-input-email')).toHaveValue(user.email);
  await expect(page.getByTestId('back-to-console')).toBeVisible();
  // Signed in, the page sits in the console frame: the sidebar and the account menu are there.
  await expect(page.getByTestId('sidebar')).toBeVisible();
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await expectNoA11yViolations(page, 'verification in the console frame');
  await page.getByTestId('back-to-console').click();
  await expect(page).not.toHaveURL(/\/verification/);
});

import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { expectNoA11yViolations, newUser, register } from './support';

test('the verification banner comes from the session in every tab, and Verify now resumes the sign-up’s code without asking the address or sending another', async ({ page, context }) => {
  const user = newUser('new-tab');
  await register(page, user);
  const mails = async () => {
    const res = await page.request.get(`${E2E_LOCALSTACK_URL}/local/mailbox/messages?to=${encodeURIComponent(user.email)}`);
    return ((await res.json()) as unknown[]).length;
  };
  await expect.poll(mails).toBe(1);

  // A new tab has never seen the sign-up: the session's unverified address still shows the banner.
  const tab = await context.newPage();
  await tab.goto('/projects');
  const banner = tab.getByTestId('verification-banner');
  await expect(banner).toContainText(user.email);
  await expectNoA11yViolations(tab, 'projects in a new tab, address not verified');

  // Verify now: the code field of the flow whose code was sent; no email field, no second mail.
  await banner.getByTestId('verify-now').click();
  await expect(tab).toHaveURL(/\/verification\?flow=/);
  await expect(tab.getByTestId('flow-input-code')).toBeVisible();
  await expect(tab.getByTestId('flow-form').locator('input[name="email"]:not([type="hidden"]):not([type="submit"])')).toHaveCount(0);
  expect(await mails()).toBe(1);
});

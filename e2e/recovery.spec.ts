import { expect, test } from './fixtures';
import { MESSAGES } from '../shared/messages';
import { E2E_LOCALSTACK_URL } from './ports';
import { expectNoA11yViolations, fillLogin, newUser, register, signOut } from './support';

interface MailboxMessage {
  recipient: string;
  body: string;
  template_type: string;
}

test('a user recovers the account with an emailed code and sets a new password', async ({ page }) => {
  const user = newUser('forgetful');
  await register(page, user);
  await signOut(page);

  await page.getByTestId('forgot-password-link').click();
  await expect(page.getByTestId('flow-input-email')).toBeVisible();
  await expectNoA11yViolations(page, 'recovery');
  await page.getByTestId('flow-input-email').fill(user.email);
  await page.getByTestId('flow-form').getByRole('button', { name: /submit|continue|send/i }).click();
  await expect(page.getByTestId('flow-input-code')).toBeVisible();

  // The developer mailbox of the local stack (it answers only to clients on this machine).
  const res = await page.request.get(`${E2E_LOCALSTACK_URL}/local/mailbox/messages?to=${encodeURIComponent(user.email)}`);
  expect(res.ok(), `mailbox answered ${res.status()}: ${await res.text()}`).toBe(true);
  const messages = (await res.json()) as MailboxMessage[];
  const code = /\b(\d{6})\b/.exec(messages.find((m) => m.template_type === 'recovery_code_valid')?.body ?? '')?.[1];
  expect(code).toBeDefined();

  await page.getByTestId('flow-input-code').fill(code ?? '');
  await page.getByTestId('flow-form').getByRole('button', { name: /continue|submit/i }).first().click();

  // The recovery ends in the settings flow; a new password takes the user home with the toast.
  await expect(page).toHaveURL(/\/settings\?flow=/);
  const newPassword = `${user.password}-renewed`;
  const passwordForm = page.getByTestId('settings-password-form');
  await passwordForm.getByTestId('flow-input-password').fill(newPassword);
  await passwordForm.getByRole('button').click();
  await expect(page.getByTestId('toast-success')).toHaveText(MESSAGES.afterRecovery);

  await signOut(page);
  await fillLogin(page, user.email, newPassword);
  await expect(page).not.toHaveURL(/\/login/);
});

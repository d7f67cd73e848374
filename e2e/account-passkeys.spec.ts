import { expect, test } from './fixtures';
import { createProject, expectNoA11yViolations, newUser, registerByApi, signOut } from './support';

test('the console account adds a passkey on /settings/advanced, signs in with it, and deletes itself once it owns nothing alone', async ({ page, context }) => {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  const user = newUser('console-passkey');
  await registerByApi(page, user);

  await page.goto('/settings/advanced');
  await expect(page.getByRole('heading', { name: 'Advanced account settings', level: 1 })).toBeVisible({ timeout: 30_000 });
  const passkeys = page.getByTestId('advanced-passkey-form');
  await expect(passkeys.getByRole('button', { name: /^Remove passkey/ })).toHaveCount(0);
  await expectNoA11yViolations(page, 'advanced account settings with passkeys');
  await passkeys.getByRole('button', { name: 'Add passkey' }).click();
  await expect(passkeys.getByRole('button', { name: /^Remove passkey/ })).toHaveCount(1);
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0]!.rpId).toBe('localhost');
  expect(credentials[0]!.isResidentCredential).toBe(true);

  // Signed out, the sign-in page offers the passkey beside the password; it alone signs in and comes back.
  await signOut(page);
  await page.goto('/settings/advanced');
  await expect(page).toHaveURL(/\/login\?/);
  await page.getByTestId('passkey-form').getByRole('button', { name: 'Sign in with passkey' }).click();
  // The page puts its settings flow in the address as it opens: with or without it, this is the page.
  await expect(page).toHaveURL(/\/settings\/advanced(\?flow=[0-9a-f-]+)?$/);
  await expect(page.getByTestId('sessions-table').getByRole('row').filter({ has: page.getByTestId('session-current') })).toContainText('Passkey');
  expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount).toBeGreaterThan(0);

  // Deleting the account: the typed address enables the button; refused while it is a project's last owner.
  const projectId = await createProject(page, 'Kept alone');
  await page.goto('/settings/advanced');
  await page.getByTestId('delete-account').click();
  const dialog = page.getByTestId('delete-account-dialog');
  await expect(dialog.getByTestId('confirm-button')).toBeDisabled();
  await dialog.getByTestId('confirm-input').fill(user.email);
  await dialog.getByTestId('confirm-button').click();
  await expect(dialog).toContainText('You are the last owner of project "Kept alone". Make another member owner, or delete it, before you delete your account.');
  await dialog.getByTestId('cancel-button').click();

  const deleted = await page.evaluate(async (id) => {
    const res = await fetch('/api/trpc/projects.delete', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-console-request': '1' },
      body: JSON.stringify({ projectId: id, confirmName: 'Kept alone' }),
    });
    return res.status;
  }, projectId);
  expect(deleted).toBe(200);

  await page.getByTestId('delete-account').click();
  await dialog.getByTestId('confirm-input').fill(user.email);
  await dialog.getByTestId('confirm-button').click();
  // Sign-in, which starts its flow at once: the address may already carry `?flow=` when it is read.
  await expect(page).toHaveURL(/\/login(\?flow=[^&]+)?$/);
  await expect(page.getByTestId('flow-form')).toBeVisible();
  // The session is gone: the app's pages ask to sign in again, and the password no longer signs in.
  await page.goto('/settings/advanced');
  await expect(page).toHaveURL(/\/login\?/);
  const form = page.getByTestId('flow-form');
  await form.getByTestId('flow-input-identifier').fill(user.email);
  await form.getByTestId('flow-input-password').fill(user.password);
  await form.getByRole('button', { name: /sign in/i }).click();
  await expect(page.getByTestId('flow-messages')).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

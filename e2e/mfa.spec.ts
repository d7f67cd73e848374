import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { Secret, TOTP } from 'otpauth';
import { createProject, expectNoA11yViolations, fillLogin, newUser, registerByApi, signOut } from './support';

/** The code an authenticator app shows now for `secret` (base32), as the console account's app would. */
const codeOf = (secret: string) => new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate();

test('the two-factor page turns the authenticator app on, and the project’s settings flow then offers its QR code', async ({ page }) => {
  await registerByApi(page, newUser('mfa'));
  const projectId = await createProject(page, 'Second factor');
  const slug = await page.evaluate(async (id) => {
    const res = await fetch(`/api/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ projectId: id }))}`);
    return ((await res.json()) as { result: { data: { slug: string } } }).result.data.slug;
  }, projectId);
  const api = `${E2E_LOCALSTACK_URL}/project-api/${slug}`;

  await page.goto(`/projects/${projectId}/mfa`);
  await expect(page.getByRole('heading', { name: 'Two-factor authentication', level: 1 })).toBeVisible({ timeout: 30_000 });
  const totp = page.getByTestId('mfa-settings-totp-enabled');
  await expect(totp).not.toBeChecked();
  await expect(page.getByTestId('mfa-settings-whoami-required-aal')).toHaveValue('highest_available');
  await totp.check();
  await page.getByTestId('mfa-settings-totp-issuer').fill('Second Factor Inc');
  await expectNoA11yViolations(page, 'two-factor authentication');
  await page.getByTestId('mfa-settings-form-submit').click();
  await expect(page.getByText('Two-factor settings saved')).toBeVisible();

  // An end user of the project now finds the authenticator app in their settings.
  const registration = (await (await page.request.get(`${api}/self-service/registration/api`)).json()) as { id: string };
  const signedUp = (await (
    await page.request.post(`${api}/self-service/registration?flow=${registration.id}`, {
      data: { method: 'password', password: 'a-Long-and-unusual-passw0rd', traits: { email: 'mfa-end-user@example.com' } },
    })
  ).json()) as { session_token: string };
  const settings = (await (await page.request.get(`${api}/self-service/settings/api`, { headers: { 'X-Session-Token': signedUp.session_token } })).json()) as {
    ui: { nodes: { group: string; attributes: { id?: string; src?: string } }[] };
  };
  const qr = settings.ui.nodes.find((n) => n.attributes.id === 'totp_qr');
  expect(qr?.group).toBe('totp');
  expect(qr?.attributes.src).toMatch(/^data:image\/png;base64,/);
});

test('the console account enrols an authenticator app on /settings/advanced; the next sign-in asks for its code and comes back', async ({ page }) => {
  const user = newUser('console-totp');
  await registerByApi(page, user);
  await page.goto('/settings/advanced');
  await expect(page.getByRole('heading', { name: 'Advanced account settings', level: 1 })).toBeVisible({ timeout: 30_000 });
  const totpForm = page.getByTestId('advanced-totp-form');
  const secret = (await totpForm.locator('#totp_secret_key code').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await expect(page.getByTestId('sessions-table').getByTestId('session-current')).toBeVisible();
  await expectNoA11yViolations(page, 'advanced account settings');

  await totpForm.getByTestId('flow-input-totp_code').fill(codeOf(secret));
  await totpForm.getByTestId('flow-submit-method-totp').click();
  await expect(totpForm.getByTestId('flow-submit-totp_unlink-true')).toBeVisible();
  await expect(page.getByTestId('sessions-table')).toContainText('Authenticator app');

  // Signed out and in again with the password alone: §4 sends the session to the second factor, then back.
  await signOut(page);
  await page.goto('/settings/advanced');
  await expect(page).toHaveURL(/\/login\?/);
  await fillLogin(page, user.email, user.password);
  await expect(page).toHaveURL(/\/login\?.*aal=aal2/);
  await expect(page.getByRole('heading', { name: 'Confirm it is you' })).toBeVisible();
  const second = page.getByTestId('login-totp-form');
  await second.getByTestId('flow-input-totp_code').fill(codeOf(secret));
  await second.getByTestId('flow-submit-method-totp').click();
  // The page puts its settings flow in the address as it opens: with or without it, this is the page.
  await expect(page).toHaveURL(/\/settings\/advanced(\?flow=[0-9a-f-]+)?$/);
  await expect(page.getByRole('heading', { name: 'Advanced account settings', level: 1 })).toBeVisible();
  await expect(page.getByTestId('sessions-table').getByRole('row').filter({ has: page.getByTestId('session-current') })).toContainText('Password, Authenticator app');
});

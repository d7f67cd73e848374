import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_PORT } from './ports';
import { createProject, expectNoA11yViolations, newUser, registerByApi } from './support';

test('the passwordless page turns passkeys on; an end user signs up with a passkey on the hosted page, signs out and signs in with it, then adds one and removes one in settings', async ({ page, browser }) => {
  await registerByApi(page, newUser('passkeys'));
  const projectId = await createProject(page, 'Passkeys');
  const slug = await page.evaluate(async (id) => {
    const res = await fetch(`/api/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ projectId: id }))}`);
    return ((await res.json()) as { result: { data: { slug: string } } }).result.data.slug;
  }, projectId);

  await page.goto(`/projects/${projectId}/passwordless`);
  await expect(page.getByRole('heading', { name: 'Passwordless', level: 1 })).toBeVisible({ timeout: 30_000 });
  const passkeys = page.getByTestId('passwordless-settings-passkey-enabled');
  await expect(passkeys).not.toBeChecked();
  await passkeys.check();
  await page.getByTestId('passwordless-settings-passkey-display-name').fill('Passkey Journey');
  await expectNoA11yViolations(page, 'passwordless');
  await page.getByTestId('passwordless-settings-form-submit').click();
  await expect(page.getByText('Passwordless settings saved')).toBeVisible();

  // WebAuthn refuses an IP address as relying party: the end user reaches the project's hosted pages by name,
  // as through a proxy that tells the project where it is served.
  const hosted = `http://localhost:${E2E_LOCALSTACK_PORT}/project-api/${slug}`;
  const endUser = await browser.newContext({
    extraHTTPHeaders: { 'x-forwarded-proto': 'http', 'x-forwarded-host': `localhost:${E2E_LOCALSTACK_PORT}`, 'x-forwarded-prefix': `/project-api/${slug}` },
  });
  try {
    const user = await endUser.newPage();
    const cdp = await endUser.newCDPSession(user);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });

    await user.goto(`${hosted}/ui/registration`);
    const signUp = user.locator('form[data-group="passkey"]');
    await signUp.getByLabel('Email').fill('passkey-user@example.com');
    await signUp.getByRole('button', { name: 'Sign up with passkey' }).click();
    await expect(user.getByTestId('hosted-signed-in')).toHaveText('Signed in as passkey-user@example.com.');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.rpId).toBe('localhost');
    expect(credentials[0]!.isResidentCredential).toBe(true);
    // The project keeps it as Kratos does: a `passkey` credential identified by the authenticator's user handle.
    const identities = await page.evaluate(async (id) => {
      const res = await fetch(`/api/trpc/identities.list?input=${encodeURIComponent(JSON.stringify({ projectId: id }))}`);
      return ((await res.json()) as { result: { data: { identities: { credentials?: Record<string, { identifiers: string[] }> }[] } } }).result.data.identities;
    }, projectId);
    expect(identities).toHaveLength(1);
    expect(identities[0]!.credentials?.password).toBeUndefined();
    expect(identities[0]!.credentials?.passkey?.identifiers).toEqual([Buffer.from(credentials[0]!.userHandle!, 'base64').toString('base64url')]);

    // Signing out ends on the hosted sign-in page, with a new login flow.
    await user.getByRole('link', { name: 'Sign out' }).click();
    await expect(user).toHaveURL(new RegExp(`^${hosted}/ui/login\\?flow=`));
    await expect(user.getByRole('button', { name: 'Sign in with passkey' })).toBeVisible();
    await user.getByRole('button', { name: 'Sign in with passkey' }).click();
    await expect(user.getByTestId('hosted-signed-in')).toHaveText('Signed in as passkey-user@example.com.');
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials[0]!.signCount).toBeGreaterThan(0);

    // In settings, a passkey made on a second device is added beside the first; the first then goes, and the
    // last one, the only way left to sign in, cannot.
    await cdp.send('WebAuthn.removeVirtualAuthenticator', { authenticatorId });
    const { authenticatorId: secondDevice } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await user.goto(`${hosted}/ui/settings`);
    const keys = user.locator('form[data-group="passkey"]').getByRole('button', { name: 'Remove passkey "unnamed"' });
    await expect(keys).toHaveCount(1);
    await expect(keys).toBeDisabled();
    await user.getByRole('button', { name: 'Add passkey' }).click();
    await expect(keys).toHaveCount(2);
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId: secondDevice })).credentials).toHaveLength(1);
    await keys.first().click();
    await expect(keys).toHaveCount(1);
    await expect(keys).toBeDisabled();
  } finally {
    await endUser.close();
  }
});

import { expect, test, type Page } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, expectNoA11yViolations, newUser, registerByApi } from './support';

/*
 * A project's hosted pages in a real browser: an end user of the project signs up, verifies the address and
 * recovers the account on them (their codes from the local stack's developer mailbox), each page accessible in
 * the light and the dark palette, and the new end user is one of the project's identities in the console.
 * (The OAuth2 login and consent on the same pages: localstack/hosted/hosted-pages.int.test.ts.)
 */

/** The newest code of `template` mailed to `to` by the project `slug`, waited for until it is there. */
async function mailedCode(page: Page, slug: string, to: string, template: string): Promise<string> {
  let code = '';
  await expect
    .poll(async () => {
      const res = await page.request.get(`${E2E_LOCALSTACK_URL}/local/mailbox/messages?${new URLSearchParams({ to, project: slug })}`);
      const messages = (await res.json()) as { body: string; template_type: string }[];
      code = /\b(\d{6})\b/.exec(messages.find((m) => m.template_type === template)?.body ?? '')?.[1] ?? '';
      return code;
    })
    .not.toBe('');
  return code;
}

/** axe on a hosted page as the browser shows it under a light system setting, then under a dark one. */
async function expectAccessibleInBothSchemes(page: Page, screen: string): Promise<void> {
  await page.emulateMedia({ colorScheme: 'light' });
  await expectNoA11yViolations(page, screen);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(244, 245, 247)');
  await expectNoA11yViolations(page, screen);
  await page.emulateMedia({ colorScheme: 'light' });
}

test('an end user signs up, verifies and recovers on the hosted pages, accessible in light and dark, and is listed in Identities', async ({ page, browser }) => {
  const user = newUser('hosted-owner');
  await registerByApi(page, user);
  const projectId = await createProject(page, 'Hosted journey');
  // Get started links to the project's hosted sign-up page.
  const signUp = page.getByTestId('hosted-registration-link');
  await expect(signUp).toHaveAttribute('href', /\/project-api\/[a-z0-9-]+\/ui\/registration$/);
  const signUpUrl = (await signUp.getAttribute('href'))!;
  const slug = /\/project-api\/([a-z0-9-]+)\/ui\/registration$/.exec(signUpUrl)![1]!;
  const email = `end-user-${Date.now().toString(36)}@example.com`;
  const message = (on: Page, id: number) => on.locator(`[data-testid="hosted-message"][data-id="${id}"]`);

  // Sign up in another browser, as an end user of the project would (the console's session is not theirs).
  const contexts = await Promise.all([browser.newContext(), browser.newContext(), browser.newContext()]);
  const [endUser, recovering, returning] = (await Promise.all(contexts.map((c) => c.newPage()))) as [Page, Page, Page];
  await endUser.goto(signUpUrl);
  await expect(endUser).toHaveURL(/\/ui\/registration\?flow=/);
  await expectAccessibleInBothSchemes(endUser, 'hosted registration page');
  await endUser.locator('input[name="traits.email"]').fill(email);
  await endUser.locator('input[name="password"]').fill('a-long-and-unusual-passphrase-42');
  await endUser.locator('button[name="method"][value="password"]').click();
  await expect(endUser.getByTestId('hosted-signed-in')).toContainText(email);

  // Verify: a code is asked for on the verification page and the mailed one entered.
  await endUser.goto(signUpUrl.replace(/\/registration$/, '/verification'));
  await endUser.locator('input[name="email"]').fill(email);
  await endUser.locator('button[name="method"]').click();
  await expect(message(endUser, 1080003)).toBeVisible();
  await expectAccessibleInBothSchemes(endUser, 'hosted verification page, code sent');
  await endUser.locator('input[name="code"]').fill(await mailedCode(page, slug, email, 'verification_code_valid'));
  await endUser.locator('button[name="method"][value="code"]').click();
  await expect(message(endUser, 1080002)).toBeVisible();

  // Recover from a third browser: the mailed code leads to the settings page, where a new password is saved.
  await recovering.goto(signUpUrl.replace(/\/registration$/, '/recovery'));
  await expect(recovering).toHaveURL(/\/ui\/recovery\?flow=/);
  await expectAccessibleInBothSchemes(recovering, 'hosted recovery page');
  await recovering.locator('input[name="email"]').fill(email);
  await recovering.locator('button[name="method"]').click();
  await expect(message(recovering, 1060003)).toBeVisible();
  await recovering.locator('input[name="code"]').fill(await mailedCode(page, slug, email, 'recovery_code_valid'));
  await recovering.locator('button[name="method"][value="code"]').click();
  await expect(recovering).toHaveURL(/\/ui\/settings\?flow=/);
  await expectAccessibleInBothSchemes(recovering, 'hosted settings page after recovery');
  await recovering.locator('input[name="password"]').fill('another-long-passphrase-77');
  await recovering.locator('button[name="method"][value="password"]').click();
  await expect(recovering.getByTestId('hosted-signed-in')).toContainText(email);

  // The new password signs in on the hosted login page, which the OAuth2 endpoints page links to (with its consent page).
  await page.goto(`/projects/${projectId}/oauth/endpoints`);
  const loginUrl = signUpUrl.replace(/\/registration$/, '/login');
  await expect(page.getByTestId('oauth2-hosted-login-open')).toHaveAttribute('href', loginUrl);
  await expect(page.getByTestId('oauth2-hosted-consent-value')).toHaveText(signUpUrl.replace(/\/registration$/, '/consent'));
  await returning.goto(loginUrl);
  await returning.locator('input[name="identifier"]').fill(email);
  await returning.locator('input[name="password"]').fill('another-long-passphrase-77');
  await returning.locator('button[name="method"][value="password"]').click();
  await expect(returning.getByTestId('hosted-signed-in')).toContainText(email);

  // The end user is one of the project's identities.
  await page.goto(`/projects/${projectId}/identities`);
  await expect(page.getByText(email)).toBeVisible();
  await Promise.all(contexts.map((c) => c.close()));
});

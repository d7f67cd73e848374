import { expect, test, type Page } from './fixtures';
import { MESSAGES } from '../shared/messages';
import { E2E_LOCALSTACK_URL } from './ports';
import { cookieHeader, createProject, expectNoA11yViolations, expectNoA11yViolationsInBothThemes, expectNoHorizontalScroll, newUser, registerByApi, setProjectPlan } from './support';

/**
 * Answers the next batch that carries `procedure` with a tRPC error of the given status and message for it (a
 * failure the local stack would not give on demand) and, for a batch of reads, the real answers of the others.
 * A write is not sent at all.
 */
async function failOnce(page: Page, procedure: string, status: number, message: string): Promise<void> {
  const pattern = `**/api/trpc/*${procedure}*`;
  await page.route(
    pattern,
    async (route) => {
      const names = decodeURIComponent(new URL(route.request().url()).pathname.split('/api/trpc/')[1]!).split(',');
      const answer = route.request().method() === 'GET' ? ((await (await route.fetch()).json()) as unknown[]) : names.map(() => null);
      answer[names.indexOf(procedure)] = { error: { message, code: -32600, data: { code: 'BAD_REQUEST', httpStatus: status, path: procedure } } };
      await route.fulfill({ status, json: answer });
    },
    { times: 1 },
  );
}

/** A 1×1 PNG. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

/** A request straight to the local stack with the user's session. */
async function upstream(page: Page, method: string, path: string, data?: unknown): Promise<unknown> {
  const res = await page.request.fetch(`${E2E_LOCALSTACK_URL}${path}`, { method, headers: { cookie: await cookieHeader(page) }, ...(data ? { data } : {}) });
  expect(res.ok(), `${method} ${path} answered ${res.status()}: ${await res.text()}`).toBe(true);
  return res.status() === 204 ? null : res.json();
}

/**
 * Playwright names the pending call of a test that times out, except the page clock's: a clock call that
 * never returns would cost the whole test budget and say nothing. It fails in 60 s, naming itself.
 */
async function clockStep(name: string, step: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`page.clock.${name} did not return within 60 s`)), 60_000);
  });
  try {
    await Promise.race([step, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

test('a pending custom domain goes active from DNS on the page’s 30 s poll, not before', async ({ page }) => {
  // The page's clock is ours: the 30 s poll of pending domains is seen by moving it, not by waiting. Only this
  // journey runs under it; the one below keeps real timers.
  await page.clock.install();
  const user = newUser('domains');
  await registerByApi(page, user);
  const projectId = await createProject(page, 'Branded');
  const id = Date.now().toString(36);
  const host = `auth-${id}.example.test`;
  const toastSuccess = page.getByTestId('toast-success');

  // Develop includes no custom domains: adding one is refused with the plan that does.
  await page.getByTestId('nav-custom-domains').click();
  await expect(page.getByTestId('custom-domains-empty')).toBeVisible();
  await page.getByTestId('domain-add-open').click();
  await expect(page.getByTestId('upgrade-prompt')).toContainText('The Production plan does.');
  await setProjectPlan(page, projectId, 'Production@0');
  await page.reload();

  // Added: pending, with the CNAME record to set.
  await page.getByTestId('domain-add-open').click();
  await page.getByTestId('domain-hostname').fill(host);
  await page.getByTestId('domain-add-submit').click();
  await expect(toastSuccess.filter({ hasText: MESSAGES.customDomainAdded })).toBeVisible();
  await expect(page.getByTestId(`domain-state-${host}`)).toHaveText('Pending verification');
  const target = (await page.getByTestId(`domain-record-value-${host}-value`).textContent())!;
  expect(target).toMatch(/^[a-z0-9-]+\.projects\.oryapis\.com$/);
  await expect(page.getByTestId(`domain-record-name-${host}-copy`)).toBeVisible();

  // The record is set at the (local) DNS server; the page looks again 30 s later, not before.
  await upstream(page, 'PUT', '/local/dns', { name: host, cname: target });
  await clockStep('runFor', page.clock.runFor(5_000));
  await expect(page.getByTestId(`domain-state-${host}`)).toHaveText('Pending verification');
  const polled = page.waitForRequest((r) => r.url().includes('domains.list'));
  await clockStep('fastForward', page.clock.fastForward(30_000));
  await polled;
  await expect(page.getByTestId(`domain-state-${host}`)).toHaveText('Active');
  await expectNoA11yViolationsInBothThemes(page, 'custom domains page with an active domain', { darkColorsOnly: true });
  await page.setViewportSize({ width: 390, height: 800 });
  await expectNoHorizontalScroll(page, 'custom domains page at 390 px');
  await page.setViewportSize({ width: 1280, height: 720 });
});

test('custom domains are refused, removed and set up with the spec’s messages, and an activated theme colours the hosted pages', async ({ page }) => {
  const user = newUser('domains-setup');
  await registerByApi(page, user);
  const projectId = await createProject(page, 'Branded');
  const id = Date.now().toString(36);
  const host = `auth-${id}.example.test`;
  const toastSuccess = page.getByTestId('toast-success');
  const toastError = page.getByTestId('toast-error');
  await setProjectPlan(page, projectId, 'Production@0');
  await upstream(page, 'POST', `/projects/${projectId}/cname`, { hostname: host });
  await page.getByTestId('nav-custom-domains').click();
  await expect(page.getByTestId(`domain-state-${host}`)).toHaveText('Pending verification');

  // Refusals: the same name again (the stack's reason), a name another project holds (409), a failure with no reason.
  const addAgain = async (name: string) => {
    await page.getByTestId('domain-add-open').click();
    await page.getByTestId('domain-hostname').fill(name);
    await page.getByTestId('domain-add-submit').click();
  };
  await addAgain(host);
  await expect(toastError.filter({ hasText: `${host} is already a custom domain of this project.` })).toBeVisible();
  const other = (await upstream(page, 'POST', '/projects', { name: 'Other', environment: 'dev' })) as { id: string };
  await setProjectPlan(page, other.id, 'Production@0');
  await upstream(page, 'POST', `/projects/${other.id}/cname`, { hostname: `taken-${id}.example.test` });
  await page.getByTestId('domain-hostname').fill(`taken-${id}.example.test`);
  await page.getByTestId('domain-add-submit').click();
  await expect(toastError.filter({ hasText: MESSAGES.customDomainInUse })).toBeVisible();
  await failOnce(page, 'domains.create', 500, '');
  await page.getByTestId('domain-hostname').fill(`www-${id}.example.test`);
  await page.getByTestId('domain-add-submit').click();
  await expect(toastError.filter({ hasText: MESSAGES.customDomainAddFailed })).toBeVisible();
  // Then added for real, and removed.
  await page.getByTestId('domain-add-submit').click();
  await expect(page.getByTestId(`domain-state-www-${id}.example.test`)).toHaveText('Pending verification');
  await page.getByTestId(`domain-remove-www-${id}.example.test`).click();
  await page.getByTestId('domain-remove-dialog').getByTestId('confirm-button').click();
  await expect(toastSuccess.filter({ hasText: MESSAGES.customDomainRemoved })).toBeVisible();
  await expect(page.getByTestId(`domain-www-${id}.example.test`)).toHaveCount(0);

  // Settings saved; then the domain is removed elsewhere, and saving or removing it here fails in the spec's words.
  await page.getByTestId(`domain-settings-${host}`).click();
  await expect(page.getByTestId('domain-settings-dialog')).toBeVisible();
  await page.getByTestId('domain-cors-enabled').click();
  await page.getByTestId('domain-cors-origins').fill('https://app.example.test');
  await page.getByTestId('domain-settings-save').click();
  await expect(toastSuccess.filter({ hasText: MESSAGES.customDomainUpdated })).toBeVisible();
  const [stored] = (await upstream(page, 'GET', `/projects/${projectId}/cname`)) as { id: string }[];
  await upstream(page, 'DELETE', `/projects/${projectId}/cname/${stored!.id}`);
  await page.getByTestId(`domain-settings-${host}`).click();
  await page.getByTestId('domain-settings-save').click();
  await expect(toastError.filter({ hasText: MESSAGES.customDomainUpdateFailed })).toBeVisible();
  await page.getByTestId('domain-settings-dialog').getByRole('button', { name: 'Cancel' }).click();
  await page.getByTestId(`domain-remove-${host}`).click();
  await page.getByTestId('domain-remove-dialog').getByTestId('confirm-button').click();
  await expect(toastError.filter({ hasText: MESSAGES.customDomainRemoveFailed })).toBeVisible();

  // The list fails to load: the server's reason (a request without its project id), or the spec's fallback.
  await page.route(
    '**/api/trpc/*domains.list*',
    async (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set('input', url.searchParams.get('input')!.replace(`"projectId":"${projectId}"`, '"projectId":""'));
      await route.continue({ url: url.toString() });
    },
    { times: 1 },
  );
  await page.reload();
  await expect(page.getByTestId('custom-domains-error')).toHaveText(MESSAGES.customDomainsProjectIdRequired);
  await failOnce(page, 'domains.list', 400, '');
  await page.getByTestId('retry-button').click();
  await expect(page.getByTestId('custom-domains-error')).toHaveText(MESSAGES.customDomainsFetchUnknown);

  // A new theme, customized with the previews following as it is edited, guarded while unsaved, then activated.
  // Before: the hosted sign-in page, framed live on the overview, wears the default look.
  await page.getByTestId('nav-account-experience').click();
  const login = page.frameLocator('[data-testid="hosted-frame-login"]');
  await expect(login.locator('body')).toHaveCSS('background-color', 'rgb(244, 245, 247)');
  await page.getByTestId('account-experience-theming').click();
  await page.getByTestId('theme-new').click();
  await page.getByTestId('theme-new-name').fill('Night');
  await page.getByTestId('theme-new-submit').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Customize theme');
  await expect(page.getByTestId('customize-name')).toHaveValue('Night');
  await expectNoA11yViolations(page, 'customize theme page');
  await page.setViewportSize({ width: 390, height: 800 });
  await expectNoHorizontalScroll(page, 'customize theme page at 390 px');
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByTestId('color-text-primary_color').fill('#f2aa4c');
  await page.getByTestId('color-text-background_canvas_color').fill('#101820');
  await page.getByTestId('color-text-foreground_on_accent_color').fill('#101820');
  await expect(page.getByTestId('theme-preview-login-button')).toHaveCSS('background-color', 'rgb(242, 170, 76)');
  await expect(page.getByTestId('theme-preview-registration-canvas')).toHaveCSS('background-color', 'rgb(16, 24, 32)');
  // A logo: a file of another type is refused before anything is sent; a small PNG shows in both previews.
  await page.getByTestId('image-logo-input').setInputFiles({ name: 'logo.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
  await expect(page.getByTestId('image-logo-error')).toHaveText('Use a PNG, JPEG, SVG, WebP, GIF or ICO image.');
  await page.getByTestId('image-logo-input').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(PIXEL_PNG, 'base64') });
  await expect(page.getByTestId('image-logo-preview')).toHaveAttribute('src', `data:image/png;base64,${PIXEL_PNG}`);
  await expect(page.getByTestId('image-logo-error')).toHaveCount(0);
  await page.getByTestId('color-text-foreground_on_accent_color').fill('#ffffff');
  await expect(page.getByTestId('contrast-warnings')).toContainText('Button text on the primary colour');
  await page.getByTestId('color-text-foreground_on_accent_color').fill('#101820');
  await expect(page.getByTestId('contrast-warnings')).not.toContainText('Button text on the primary colour');
  await page.getByTestId('nav-account-experience').click();
  await expect(page.getByTestId('unsaved-changes-dialog')).toBeVisible();
  await page.getByTestId('unsaved-changes-dialog').getByTestId('cancel-button').click();
  await page.getByTestId('customize-save').click();
  await expect(toastSuccess.filter({ hasText: 'Theme saved' })).toBeVisible();
  await page.getByTestId('customize-activate').click();
  await expect(toastSuccess.filter({ hasText: '“Night” is now the theme of the hosted pages' })).toBeVisible();

  // After: the sign-in page wears the theme's colours.
  await page.getByTestId('nav-account-experience').click();
  await expect(page.getByTestId('account-experience-theming')).toHaveText('Theme: Night');
  await expect(login.locator('body')).toHaveCSS('background-color', 'rgb(16, 24, 32)');
  await expect(login.getByTestId('hosted-preview-note')).toBeVisible();
  await expect(login.locator('img.logo')).toHaveAttribute('src', `data:image/png;base64,${PIXEL_PNG}`);
  await expect(login.getByRole('button').first()).toHaveCSS('background-color', 'rgb(242, 170, 76)');

  // The logo removed and saved: the sign-in page shows none, its colours stay.
  await page.getByTestId('account-experience-theming').click();
  await page.getByTestId('theme-customize-Night').click();
  await expect(page.getByTestId('image-logo-preview')).toBeVisible();
  await page.getByTestId('image-logo-remove').click();
  await expect(page.getByTestId('image-logo-preview')).toHaveCount(0);
  await page.getByTestId('customize-save').click();
  await expect(toastSuccess.filter({ hasText: 'Theme saved' }).first()).toBeVisible();
  await page.getByTestId('nav-account-experience').click();
  await expect(login.locator('body')).toHaveCSS('background-color', 'rgb(16, 24, 32)');
  await expect(login.locator('img.logo')).toHaveCount(0);
});

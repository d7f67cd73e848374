import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, expectNoA11yViolations, newUser, registerByApi } from './support';

interface MailboxMessage {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  template_type: string;
}

async function slugOf(page: Page, projectId: string): Promise<string> {
  return page.evaluate(async (id) => {
    const res = await fetch(`/api/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ projectId: id }))}`);
    return ((await res.json()) as { result: { data: { slug: string } } }).result.data.slug;
  }, projectId);
}

/** An end user of the project signs up through the project's own API (a native app). */
async function endUserSignsUp(request: APIRequestContext, slug: string, email: string): Promise<void> {
  const base = `${E2E_LOCALSTACK_URL}/project-api/${slug}`;
  const flow = await (await request.get(`${base}/self-service/registration/api`)).json();
  const res = await request.post(`${base}/self-service/registration?flow=${flow.id}`, {
    data: { method: 'password', password: 'a-Long-and-unusual-passw0rd', traits: { email, name: 'End User' } },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** The end user asks to recover their account through the project's own recovery flow. */
async function endUserRecovers(request: APIRequestContext, slug: string, email: string): Promise<void> {
  const base = `${E2E_LOCALSTACK_URL}/project-api/${slug}`;
  const flow = await (await request.get(`${base}/self-service/recovery/api`)).json();
  const res = await request.post(`${base}/self-service/recovery?flow=${flow.id}`, { data: { method: 'code', email } });
  expect(res.status(), await res.text()).toBe(200);
}

/** The project's mail to `to` in the local stack's mailbox (loopback only), newest first. */
async function mailbox(request: APIRequestContext, slug: string, to: string): Promise<MailboxMessage[]> {
  const res = await request.get(`${E2E_LOCALSTACK_URL}/local/mailbox/messages?project=${slug}&to=${encodeURIComponent(to)}`);
  expect(res.ok(), `mailbox answered ${res.status()}`).toBe(true);
  return (await res.json()) as MailboxMessage[];
}

test('an edited recovery-code template is what the next recovery mail says, in the mailbox and on the Delivery page', async ({ page }) => {
  await registerByApi(page, newUser('mailer'));
  const projectId = await createProject(page, 'Mailer');
  const slug = await slugOf(page, projectId);
  const endUser = `reader-${Date.now().toString(36)}@example.com`;
  await endUserSignsUp(page.request, slug, endUser);

  // The templates page opens on the recovery code; edit it and watch the preview follow.
  await page.goto(`/projects/${projectId}/email-templates`);
  await page.getByTestId('template-recovery_code-valid').click();
  await expect(page).toHaveURL(/template=recovery_code&variant=valid/);
  await expect(page.getByTestId('template-variables')).toContainText('{{ .RecoveryCode }}');
  // Templates are named in words, never by id or a bare "Valid".
  await expect(page.getByTestId('template-recovery_code-valid')).toHaveText('Recovery code (known address)');
  await expect(page.getByTestId('template-recovery_code-invalid')).toHaveText('Recovery code (unknown address)');
  await expect(page.getByTestId('template-card').getByRole('heading').first()).toHaveText('Recovery code (known address)');
  await page.getByTestId('template-subject').fill('Your Mailer code for {{ .Identity.traits.email }}');
  await page.getByTestId('template-plaintext').fill('Mailer says: your code is {{ .RecoveryCode }}.');
  await page.getByTestId('template-html').fill('<p>Mailer says: your code is <b>{{ .RecoveryCode }}</b>.</p>');
  await expect(page.getByTestId('template-preview-subject')).toHaveText('Your Mailer code for ada@example.com');
  await expect(page.getByTestId('template-preview-plaintext')).toHaveText('Mailer says: your code is 123456.');
  // axe cannot look into the sandboxed (script-less) HTML preview, so it checks the page on the plain-text tab.
  await expectNoA11yViolations(page, 'email templates, editing');
  await page.getByTestId('template-preview-tabs-html').click();
  await expect(page.frameLocator('[data-testid="template-preview-html"]').locator('b')).toHaveText('123456');
  await page.getByTestId('template-preview-tabs-plaintext').click();
  await page.getByTestId('template-form-submit').click();
  await expect(page.getByText('Template saved')).toBeVisible();
  await expect(page.getByTestId('template-recovery_code-valid')).toContainText('Custom');

  // A template that does not render is refused with what to fix, and the preview says so first.
  await page.getByTestId('template-plaintext').fill('Broken {{ .Nope }}');
  await expect(page.getByTestId('template-preview-error')).toContainText('{{ .Nope }} is not a variable of this template');
  await page.getByTestId('template-form-discard').click();

  // The end user recovers their account through the project's own flow: the mail carries the edited text.
  await endUserRecovers(page.request, slug, endUser);
  await expect
    .poll(async () => (await mailbox(page.request, slug, endUser)).find((m) => m.template_type === 'recovery_code_valid')?.body ?? '')
    .toMatch(/^Mailer says: your code is \d{6}\.$/);

  // The Delivery page lists it as sent; its detail shows the body and the successful attempt.
  await page.goto(`/projects/${projectId}/email-delivery`);
  await page.getByTestId('delivery-recipient-filter').fill(endUser);
  await page.getByTestId('delivery-filter-apply').click();
  await expect(page).toHaveURL(new RegExp(`recipient=${encodeURIComponent(endUser).replace(/\./g, '\\.')}`));
  const row = page.getByTestId('delivery-table').getByRole('row').filter({ hasText: `Your Mailer code for ${endUser}` });
  await expect(row.getByTestId('message-status')).toHaveText('Sent');
  await expect(row).toContainText('Recovery code (known address)');
  await expect(row).not.toContainText('recovery_code_valid');
  await expectNoA11yViolations(page, 'delivery log, filtered');
  await row.getByTestId('delivery-message-link').click();
  await expect(page.getByTestId('message-body')).toContainText('Mailer says: your code is');
  await expect(page.getByTestId('message-template')).toHaveText('Recovery code (known address)');
  await expect(page.getByTestId('dispatches-table')).toContainText('Delivered');
  await expectNoA11yViolations(page, 'message detail');
  // Back keeps the filter, from the URL.
  await page.goBack();
  await expect(page.getByTestId('delivery-recipient-filter')).toHaveValue(endUser);

  // Reset to the default, after confirming.
  await page.goto(`/projects/${projectId}/email-templates?template=recovery_code&variant=valid`);
  await page.getByTestId('template-reset').click();
  await expect(page.getByTestId('template-reset-dialog')).toBeVisible();
  await expectNoA11yViolations(page, 'reset template dialog');
  await page.getByTestId('template-reset-dialog').getByRole('button', { name: 'Reset to default' }).click();
  await expect(page.getByTestId('template-subject')).toHaveValue('Recover access to your account');
});

test('a test send from the email configuration page appears in the delivery log, and a refusing SMTP server is logged as abandoned', async ({ page }) => {
  await registerByApi(page, newUser('sender'));
  const projectId = await createProject(page, 'Sender');
  const slug = await slugOf(page, projectId);

  await page.goto(`/projects/${projectId}/email-configuration`);
  await expect(page.getByTestId('email-strategy')).toHaveValue('default');
  await expectNoA11yViolations(page, 'email configuration');
  const to = `test-send-${Date.now().toString(36)}@example.com`;
  await page.getByTestId('test-send-kind').selectOption('verification_code_valid');
  await page.getByTestId('test-send-recipient').fill(to);
  await page.getByTestId('test-send-submit').click();
  await expect(page.getByTestId('test-send-result')).toBeVisible();
  await expect.poll(async () => (await mailbox(page.request, slug, to)).map((m) => m.template_type)).toEqual(['verification_code_valid']);

  await page.goto(`/projects/${projectId}/email-delivery`);
  const row = page.getByTestId('delivery-table').getByRole('row').filter({ hasText: to });
  await expect(row.getByTestId('message-status')).toHaveText('Sent');

  // An SMTP server that refuses on loopback: the password is kept but never shown, each attempt fails.
  await page.goto(`/projects/${projectId}/email-configuration`);
  await page.getByTestId('email-strategy').selectOption('smtp');
  await page.getByTestId('smtp-host').fill('127.0.0.1');
  await page.getByTestId('smtp-port').fill('1');
  await page.getByTestId('smtp-username').fill('mailer');
  await page.getByTestId('smtp-password').fill('Never-Shown-Pa55');
  await page.getByTestId('email-from-address').fill('no-reply@sender.example.com');
  await page.getByTestId('email-config-form-submit').click();
  await expect(page.getByText('Email settings saved')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('smtp-host')).toHaveValue('127.0.0.1');
  await expect(page.getByTestId('smtp-password')).toHaveValue('');
  expect(await page.content()).not.toContain('Never-Shown-Pa55');

  const refused = `refused-${Date.now().toString(36)}@example.com`;
  await page.getByTestId('test-send-kind').selectOption('stub');
  await page.getByTestId('test-send-recipient').fill(refused);
  await page.getByTestId('test-send-submit').click();
  await page.getByTestId('test-send-result').click();
  await expect(page.getByTestId('message-status')).toHaveText('Abandoned', { timeout: 20_000 });
  await expect(page.getByTestId('dispatches-table')).toContainText('Could not connect to the SMTP server at 127.0.0.1:1');
  await expect(page.getByTestId('message-send-count')).toHaveText('5');

  await page.goto(`/projects/${projectId}/email-delivery?status=abandoned`);
  await expect(page.getByTestId('delivery-table')).toContainText(refused);
  await expect(page.getByTestId('delivery-table')).not.toContainText(to);
  await expect(page.getByTestId('delivery-status-filter')).toHaveValue('abandoned');

  // Text messages go through the project's SMS endpoint; one that refuses is logged the same way.
  await page.goto(`/projects/${projectId}/sms-configuration`);
  await expect(page.getByTestId('sms-enabled')).not.toBeChecked();
  await expectNoA11yViolations(page, 'sms configuration');
  await page.getByTestId('sms-enabled').check();
  await page.getByTestId('sms-url').fill('http://127.0.0.1:1/sms');
  await page.getByTestId('sms-config-form-submit').click();
  await expect(page.getByText('SMS settings saved')).toBeVisible();
  await page.getByTestId('test-send-recipient').fill('+1 555 000 1111');
  await page.getByTestId('test-send-submit').click();
  await page.getByTestId('test-send-result').click();
  await expect(page.getByTestId('dispatches-table')).toContainText('Could not connect to the SMS endpoint at 127.0.0.1:1');
  await expect(page.getByTestId('message-recipient')).toHaveText('+15550001111');
});

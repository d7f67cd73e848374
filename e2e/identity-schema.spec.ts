import { expect, test } from './fixtures';
import { emailTrait, identitySchemaOf } from '../server/test-support/identity-schemas';
import { createProject, expectNoA11yViolations, newUser, registerByApi } from './support';

/**
 * The email preset with a loyalty number and a full name, in an order jsonb would not keep (it puts shorter
 * keys first); `via` is where the first version goes wrong.
 */
const customerSchema = (via: string) =>
  JSON.stringify(
    identitySchemaOf(
      { email: emailTrait(via), loyalty_id: { type: 'string', title: 'Loyalty number', pattern: '^[0-9]{6}$' }, name: { type: 'string', title: 'Full name' } },
      ['email'],
      { title: 'Customer' },
    ),
    null,
    2,
  );

test('a custom schema from a preset is checked as it is written, previewed, made the default, and shapes the identity form', async ({ page }) => {
  await registerByApi(page, newUser('schemas'));
  const projectId = await createProject(page, 'Customers');

  // An identity of the built-in schema, made before the project has its own.
  await page.goto(`/projects/${projectId}/identities`);
  await page.getByTestId('identity-create-open').click();
  const early = page.getByTestId('identity-create-dialog');
  await early.getByTestId('trait-email').fill('early@shop.example');
  await early.getByTestId('identity-create-submit').click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/identities/[0-9a-f-]{36}$`));
  const earlyUrl = page.url();

  await page.goto(`/projects/${projectId}/identity-schema`);
  await expect(page.getByTestId('schemas-active').getByTestId('active-schema')).toContainText('default');
  await expect(page.getByTestId('schemas-active').getByTestId('default-badge')).toBeVisible();
  await expect(page.getByTestId('schemas-empty')).toBeVisible();
  await expectNoA11yViolations(page, 'identity schema page');

  // Start from a preset: the editor holds it, and the server finds it valid.
  await page.locator('[data-preset="preset://email-name"]').getByTestId('start-from-preset').click();
  const editor = page.getByTestId('schema-editor');
  await expect(editor.getByTestId('schema-name')).toHaveValue('Email and name (custom)');
  await expect(editor.getByTestId('schema-valid')).toBeVisible();
  await expect(page.getByTestId('schema-preview').getByTestId('trait-email')).toBeVisible();

  // A mistake is shown at its line.
  const wrong = customerSchema('pigeon');
  const wrongLine = wrong.split('\n').findIndex((line) => line.includes('"pigeon"')) + 1;
  await editor.locator('.cm-content').fill(wrong);
  const problem = editor.getByTestId('schema-problem');
  await expect(problem).toHaveCount(1);
  await expect(problem).toHaveAttribute('data-line', String(wrongLine));
  await expect(problem).toContainText(`Line ${wrongLine}, column`);
  await expect(problem).toContainText('must be one of "email", "sms"');
  await expect(editor.locator('.cm-lint-marker-error').first()).toBeVisible();
  await expectNoA11yViolations(page, 'identity schema editor with a problem');

  // Fixed, it is valid and the preview shows its new field.
  await editor.locator('.cm-content').fill(customerSchema('email'));
  await expect(editor.getByTestId('schema-valid')).toBeVisible();
  const preview = page.getByTestId('schema-preview');
  await expect(preview.getByTestId('trait-loyalty_id')).toBeVisible();
  await preview.getByTestId('trait-loyalty_id').fill('123456');
  await expect(preview.getByTestId('trait-loyalty_id')).toHaveValue('123456');

  await editor.getByTestId('schema-name').fill('Customers');
  await editor.getByTestId('save-schema').click();
  await expect(page.getByText('Saved “Customers”.')).toBeVisible();
  const managed = page.getByTestId('managed-schema').filter({ hasText: 'Customers' });
  await expect(managed).toBeVisible();
  await expect(editor.getByTestId('save-schema')).toHaveText('Save schema');

  // Made the default, after a confirmation that says what it changes.
  await managed.getByTestId('set-default').click();
  const dialog = page.getByTestId('set-default-dialog');
  await expect(dialog).toContainText('Self-service registration and new identities will use “Customers”');
  await expectNoA11yViolations(page, 'set default dialog');
  await dialog.getByTestId('confirm-button').click();
  await expect(dialog).toBeHidden();
  await expect(managed.getByTestId('default-badge')).toBeVisible();
  await expect(page.getByTestId('schemas-active').getByTestId('active-schema')).toHaveCount(1);
  await expect(page.getByTestId('schemas-active')).toContainText('Customers');
  await expectNoA11yViolations(page, 'identity schema page with a custom default', { toasts: true });

  // The Identities page builds its form from the new default.
  await page.goto(`/projects/${projectId}/identities`);
  await page.getByTestId('identity-create-open').click();
  const create = page.getByTestId('identity-create-dialog');
  await expect(create.getByTestId('trait-loyalty_id')).toBeVisible();
  // Its fields in the order the schema's author wrote them.
  await expect(create.locator('[data-testid^="trait-"]')).toHaveCount(3);
  expect(await create.locator('[data-testid^="trait-"]').evaluateAll((inputs) => inputs.map((i) => i.getAttribute('data-testid')))).toEqual([
    'trait-email',
    'trait-loyalty_id',
    'trait-name',
  ]);
  await create.getByTestId('trait-email').fill('customer@shop.example');
  await create.getByTestId('trait-loyalty_id').fill('654321');
  await create.getByTestId('identity-create-submit').click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/identities/[0-9a-f-]{36}$`));
  await expect(page.getByTestId('identity-traits-card').getByTestId('trait-loyalty_id')).toHaveValue('654321');

  // The earlier identity follows the default schema: its traits are edited in the new form.
  await page.goto(earlyUrl);
  await expect(page.getByTestId('identity-traits-card').getByTestId('trait-loyalty_id')).toBeVisible();
  await expect(page.getByTestId('identity-traits-card').getByTestId('trait-email')).toHaveValue('early@shop.example');

  // A change of the schema those identities would not match is refused, saying how many would break.
  await page.goto(`/projects/${projectId}/identity-schema`);
  await page.getByTestId('managed-schema').filter({ hasText: 'Customers' }).getByTestId('edit-schema').click();
  // The editor holds the text as it was saved, not a rewritten one (jsonb would start with "type", its shortest key).
  await expect(page.getByTestId('schema-editor').locator('.cm-content')).toContainText(customerSchema('email').split('\n').slice(0, 12).join(''));
  const tightened = JSON.parse(customerSchema('email')) as { properties: { traits: { properties: Record<string, unknown>; required: string[] } } };
  tightened.properties.traits.properties.tier = { type: 'string', title: 'Tier' };
  tightened.properties.traits.required.push('tier');
  const edit = page.getByTestId('schema-editor');
  // The editor draws only the lines in view, so the text is replaced through its own "select all" (a fill
  // selects what is drawn, and would leave the lines below in place).
  await edit.locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(JSON.stringify(tightened, null, 2));
  await expect(edit.getByTestId('schema-valid')).toBeVisible();
  await edit.getByTestId('save-schema').click();
  await expect(edit.getByTestId('schema-save-error')).toContainText('would make 2 existing identities of this project invalid');
  await expectNoA11yViolations(page, 'schema change refused');

  // The unsaved change is not lost by a stray click: leaving asks first.
  await page.getByTestId('nav-identities').click();
  const leave = page.getByTestId('unsaved-changes-dialog');
  await expect(leave).toBeVisible();
  await leave.getByTestId('cancel-button').click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/identity-schema$`));
  await expect(edit.getByTestId('schema-save-error')).toBeVisible();
});

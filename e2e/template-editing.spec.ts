import { expect, test, type Locator, type Page } from './fixtures';
import { createProject, expectNoA11yViolationsInBothThemes, expectNoHorizontalScroll, newUser, registerByApi } from './support';

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element has no box');
  return found;
}

const overlaps = (a: { x: number; y: number; width: number; height: number }, b: typeof a) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Saves the form, with its Save button at the very bottom of the window, and checks the toast leaves it clear. */
async function saveClearOfToast(page: Page): Promise<void> {
  const save = page.getByTestId('template-form-submit');
  await save.evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await save.click();
  const toast = page.getByTestId('toast').filter({ hasText: 'Template saved' });
  await expect(toast).toBeVisible();
  await expect(save).toBeDisabled();
  // The toast slides in from below: measure where it comes to rest, not where its entrance animation has it.
  await toast.evaluate((el) =>
    Promise.all(
      el.ownerDocument
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished),
    ),
  );
  expect(overlaps(await box(toast), await box(save))).toBe(false);
  await page.getByTestId('toast-dismiss').first().click();
  await expect(toast).toHaveCount(0);
}

test('email templates: the preview sits beside the editor, switching template asks before dropping edits, a bad template is reported once with Save disabled, and toasts leave Save clear', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerByApi(page, newUser('templates'));
  const projectId = await createProject(page, 'Template editing');
  await page.goto(`/projects/${projectId}/email-templates?template=recovery_code&variant=valid`);
  const subject = page.getByTestId('template-subject');
  await expect(subject).toHaveValue('Recover access to your account');

  // Wide screen: the preview is beside the fields, not below them.
  const fields = await box(subject);
  const preview = await box(page.getByTestId('template-preview-card'));
  expect(preview.x).toBeGreaterThanOrEqual(fields.x + fields.width);
  expect(preview.y).toBeLessThan(fields.y + fields.height);

  // Switching template with unsaved edits asks first; staying keeps them.
  await subject.fill('Edited subject');
  await page.getByTestId('template-verification_code-valid').click();
  const guard = page.getByTestId('unsaved-changes-dialog');
  await expect(guard).toBeVisible();
  await expectNoA11yViolationsInBothThemes(page, 'switching template with unsaved edits');
  await guard.getByTestId('cancel-button').click();
  await expect(guard).toBeHidden();
  await expect(page).toHaveURL(/template=recovery_code&variant=valid/);
  await expect(subject).toHaveValue('Edited subject');
  // Leaving discards them and opens the other template.
  await page.getByTestId('template-verification_code-valid').click();
  await guard.getByTestId('confirm-button').click();
  await expect(page).toHaveURL(/template=verification_code&variant=valid/);
  await expect(subject).not.toHaveValue('Edited subject');
  // Without edits, a switch asks nothing.
  await page.getByTestId('template-recovery_code-valid').click();
  await expect(page).toHaveURL(/template=recovery_code&variant=valid/);
  await expect(subject).toHaveValue('Recover access to your account');
  await expect(guard).toBeHidden();

  // A template that does not render: one message, Save disabled, nothing sent, no toast.
  await page.getByTestId('template-plaintext').fill('Broken {{ .Nope }}');
  await expect(page.getByText('is not a variable of this template')).toHaveCount(1);
  await expect(page.getByTestId('template-preview-error')).toContainText('{{ .Nope }} is not a variable of this template');
  await expect(page.getByTestId('template-form-submit')).toBeDisabled();
  await page.getByTestId('template-plaintext').press('Enter');
  await expect(page.getByTestId('template-form-error')).toHaveCount(0);
  await expect(page.getByTestId('toast')).toHaveCount(0);
  await expectNoA11yViolationsInBothThemes(page, 'email template that does not render');

  // Fixed, it saves; the toast is clear of Save on a desktop and on a phone.
  await page.getByTestId('template-plaintext').fill('Your code is {{ .RecoveryCode }}.');
  await saveClearOfToast(page);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await page.getByTestId('template-plaintext').fill('Your recovery code is {{ .RecoveryCode }}.');
  await saveClearOfToast(page);
  await expectNoA11yViolationsInBothThemes(page, 'email templates at 390 px');
});

test('the identity schema editor shows its preview beside the editor on a wide screen', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerByApi(page, newUser('schema-layout'));
  const projectId = await createProject(page, 'Schema layout');
  await page.goto(`/projects/${projectId}/identity-schema`);
  await page.getByTestId('start-from-preset').first().click();
  const editor = await box(page.getByTestId('schema-editor'));
  const preview = await box(page.getByTestId('schema-preview'));
  expect(preview.x).toBeGreaterThanOrEqual(editor.x + editor.width);
  expect(preview.y).toBeLessThan(editor.y + editor.height);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
});

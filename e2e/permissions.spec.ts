import { expect, test } from './fixtures';
import { DOCUMENTS_AND_FOLDERS } from '../shared/permissions/templates';
import { createProject, expectNoA11yViolations, newUser, registerByApi } from './support';

test('rules from a template, relationships added, the debugger explains an answer, and a syntax error shows at its line', async ({ page }) => {
  await registerByApi(page, newUser('permissions'));
  const projectId = await createProject(page, 'Documents');

  // Rules: start from the documents template; the permission service finds no problem; save.
  await page.goto(`/projects/${projectId}/permissions/configuration`);
  await expect(page.getByTestId('rules-status')).toContainText('No rules yet');
  await page.getByTestId('rules-template-documents').click();
  await expect(page.getByTestId('rules-status')).toContainText('No problems found.');
  await expect(page.getByTestId('rules-overview').getByTestId('rules-namespace')).toHaveCount(4);
  await expectNoA11yViolations(page, 'permission rules page');
  await page.getByTestId('rules-save').click();
  await expect(page.getByText('Permission rules saved')).toBeVisible();
  await expect(page.getByTestId('rules-discard')).toBeHidden();

  // A mistake is shown at its line: a relation typed as a namespace that does not exist.
  const editor = page.getByTestId('rules-editor');
  const broken = DOCUMENTS_AND_FOLDERS.replace('manager: User[]', 'manager: Person[]');
  const brokenLine = broken.split('\n').findIndex((line) => line.includes('Person[]')) + 1;
  await editor.locator('.cm-content').fill(broken);
  const problems = page.getByTestId('rules-problems');
  await expect(problems).toContainText(`Line ${brokenLine}, column`);
  await expect(problems).toContainText('namespace "Person" was not declared');
  await expect(editor.locator('.cm-lint-marker-error').first()).toBeVisible();
  await expect(page.getByTestId('rules-save')).toBeDisabled();
  await page.getByTestId('rules-discard').click();
  await expect(page.getByTestId('rules-status')).toContainText('No problems found.');

  // Checking options: strict mode is saved, then turned off again for the checks below.
  const strict = page.getByTestId('permission-strict-mode');
  const saveFlags = page.getByTestId('permission-flags-form-submit');
  await strict.check();
  await saveFlags.click();
  await expect(page.getByText('Checking options saved')).toBeVisible();
  await expect(saveFlags).toBeDisabled();
  await strict.uncheck();
  const saved = page.waitForResponse((r) => r.url().includes('permissionRules.setFeatureFlags') && r.ok());
  await saveFlags.click();
  await saved;
  await page.reload();
  await expect(strict).not.toBeChecked();

  // Relationships: the empty state explains them; add a group member, the folder's viewers and the file's parent.
  await page.goto(`/projects/${projectId}/permissions/relationships`);
  await expect(page.getByTestId('empty-state')).toContainText('File:readme#viewers@ada');
  await expectNoA11yViolations(page, 'relationships page, empty');
  const add = async (namespace: string, object: string, relation: string, subject: string) => {
    await page.getByTestId('relationship-create').click();
    const dialog = page.getByTestId('relationship-create-dialog');
    await dialog.getByTestId('relationship-namespace').selectOption(namespace);
    await dialog.getByTestId('relationship-object').fill(object);
    await dialog.getByTestId('relationship-relation').selectOption(relation);
    await dialog.getByTestId('relationship-subject').fill(subject);
    await dialog.getByTestId('relationship-create-submit').click();
    await expect(dialog).toBeHidden();
  };
  await add('Group', 'developers', 'members', 'User:ada#');
  await add('Folder', 'docs', 'viewers', 'Group:developers#members');
  await add('File', 'readme', 'parents', 'Folder:docs#');
  await expect(page.getByTestId('relationships-table').getByRole('row')).toHaveCount(4);

  // The debugger: ada may view the file, and the tree shows why, down to the group membership.
  const debuggerCard = page.getByTestId('check-debugger');
  await debuggerCard.getByTestId('debugger-subject').fill('User:ada#');
  await debuggerCard.getByTestId('debugger-relation').fill('view');
  await debuggerCard.getByTestId('debugger-namespace').fill('File');
  await debuggerCard.getByTestId('debugger-object').fill('readme');
  await debuggerCard.getByTestId('debugger-submit').click();
  await expect(debuggerCard.getByTestId('debugger-verdict')).toHaveText('Allowed');
  const tree = debuggerCard.getByTestId('debugger-tree');
  await expect(tree).toContainText('Follow this.related.parents.traverse');
  const decisive = tree.getByTestId('debugger-tuple').filter({ hasText: 'Group:developers#members@User:ada#' });
  await expect(decisive).toBeVisible();
  await expectNoA11yViolations(page, 'relationships page with the debugger');

  // The tuple's link shows it in the table, filtered (the filters are in the URL).
  await decisive.click();
  await expect(page).toHaveURL(/namespace=Group/);
  await expect(page.getByTestId('relationships-table').getByRole('row')).toHaveCount(2);

  // Someone else is denied.
  await debuggerCard.getByTestId('debugger-subject').fill('User:eve#');
  await debuggerCard.getByTestId('debugger-submit').click();
  await expect(debuggerCard.getByTestId('debugger-verdict')).toHaveText('Denied');
});

import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { createProject, expectNoA11yViolations, newUser, registerByApi } from './support';

test('a project exported as one file, from the keyboard, is imported into a new project after seeing what the file holds', async ({ page }) => {
  const user = newUser('project-file');
  await registerByApi(page, user);
  const sourceId = await createProject(page, 'Moving shop');

  await page.goto(`/projects/${sourceId}/settings/history`);
  const card = page.getByTestId('project-file-card');
  await expect(card.getByRole('button', { name: 'Export project' })).toBeVisible();
  await expectNoA11yViolations(page, 'project file card');

  // Identities included, then the export, all from the keyboard.
  await card.getByTestId('project-export-identities').focus();
  await page.keyboard.press('Space');
  await expect(card.getByTestId('project-export-identities')).toBeChecked();
  const exportButton = card.getByRole('button', { name: 'Export project' });
  await exportButton.focus();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/-project\.json$/);
  const path = (await saved.path())!;
  const file = JSON.parse(await readFile(path, 'utf8')) as { format: string; name: string; identities?: unknown[]; themes: unknown[] };
  expect(file).toMatchObject({ format: 'ory-console-project', name: 'Moving shop', identities: [] });

  const copyId = await createProject(page, 'New home');
  await page.goto(`/projects/${copyId}/settings/history`);
  // A file of another kind is refused before anything is sent.
  await page.getByLabel('Import project').setInputFiles({ name: 'other.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"something-else"}') });
  await expect(page.getByTestId('project-import-error')).toContainText('not a project file exported by the console');

  await page.getByLabel('Import project').setInputFiles(path);
  const dialog = page.getByTestId('project-import-dialog');
  await expect(dialog.getByTestId('project-import-summary')).toContainText(`${file.themes.length} branding theme`);
  await expect(dialog.getByTestId('project-import-summary')).toContainText('0 identities');
  await expectNoA11yViolations(page, 'project import dialog');
  for (const secret of await dialog.getByTestId('project-import-secret').all()) await secret.fill('given-again');
  await dialog.getByRole('button', { name: 'Import' }).click();

  const result = page.getByTestId('project-import-result');
  await expect(result.getByTestId('project-import-counts')).toContainText(`${file.themes.length} branding theme`);
  await expectNoA11yViolations(page, 'project import result');
  await page.keyboard.press('Escape');
  await expect(result).toBeHidden();
  // The copy took the file's name as its next configuration version.
  await expect(page.getByTestId('history-table').locator('tbody tr').first()).toContainText('Moving shop');
});

import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures';
import { createProject, expectNoA11yViolations, newUser, patchProjectUpstream, registerByApi } from './support';

test('the configuration history shows who changed what, restoring an earlier version brings it back as a new one, and the audit log records the restore', async ({ page }) => {
  const user = newUser('history');
  await registerByApi(page, user);
  const projectId = await createProject(page, 'Before');
  // A change made outside this page (with the user's own session): the name.
  await patchProjectUpstream(page, projectId, [{ op: 'replace', path: '/name', value: 'After' }]);

  await page.goto(`/projects/${projectId}/settings/history`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Configuration history');
  const rows = page.getByTestId('history-table').locator('tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('After');
  await expect(rows.nth(0)).toContainText(user.email);
  await expect(rows.nth(0).getByTestId('history-current')).toBeVisible();
  await expect(rows.nth(1).getByTestId('history-current')).toHaveCount(0);
  await expectNoA11yViolations(page, 'configuration history');

  // What the newest version changed: the name, before and after.
  await rows.nth(0).getByTestId('history-show').click();
  const changes = page.getByTestId('history-changes-dialog');
  await expect(changes.getByTestId('history-change')).toHaveCount(1);
  await expect(changes.getByTestId('history-change')).toContainText('/name');
  await expect(changes.getByTestId('history-change').locator('del')).toHaveText('"Before"');
  await expect(changes.getByTestId('history-change').locator('ins')).toHaveText('"After"');
  await expectNoA11yViolations(page, 'configuration history changes');
  await page.keyboard.press('Escape');
  await expect(changes).toBeHidden();

  // Restore the first version: asked first, then a third version, current, named as before.
  await rows.nth(1).getByTestId('history-restore').click();
  const confirm = page.getByTestId('history-restore-dialog');
  await expect(confirm).toContainText('The current configuration stays in the history.');
  await confirm.getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByText('The configuration was restored as a new version.')).toBeVisible();
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toContainText('Before');
  await expect(rows.nth(0).getByTestId('history-current')).toBeVisible();
  await expect(page.getByTestId('project-switcher')).toContainText('Before');

  // The project's audit log: the restore, by this user, newest first; filtered to restores by its action.
  await page.goto(`/projects/${projectId}/settings/audit-log`);
  const events = page.getByTestId('audit-table').locator('tbody tr');
  await expect(events.first()).toContainText('project.config_restore');
  await expect(events.first()).toContainText(user.email);
  await expect(events.first().getByTestId('audit-outcome')).toHaveText('Succeeded');
  // A new project runs on Develop, whose history is a day.
  await expect(page.getByTestId('audit-retention')).toHaveText('Your plan keeps the last day of this log; a higher plan keeps more.');
  await page.getByTestId('audit-action').fill('project.config_restore');
  await page.getByTestId('audit-filter-apply').click();
  await expect(page).toHaveURL(/action=project\.config_restore/);
  await expect(events).toHaveCount(1);
  await expectNoA11yViolations(page, 'project audit log');
  await events.first().getByTestId('audit-open').click();
  await expect(page.getByTestId('audit-fields')).toHaveText('current_revision_id');
  // What the restore changed, before and after: the name back.
  const renamed = page.getByTestId('audit-changes').getByTestId('audit-change').filter({ hasText: '/name' });
  await expect(renamed.locator('del')).toHaveText('"After"');
  await expect(renamed.locator('ins')).toHaveText('"Before"');
  await expectNoA11yViolations(page, 'audit log event with its changes');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('audit-drawer')).toBeHidden();

  // The filtered log as a CSV file, exported from the keyboard: a header and the restore, by this user.
  const exportCsv = page.getByTestId('audit-export-csv');
  await exportCsv.focus();
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^audit-log-${projectId}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const lines = (await readFile((await file.path())!, 'utf8')).trimEnd().split('\r\n');
  expect(lines[0]).toMatch(/^id,at,actor_id,actor_email,actor_kind,actor_key_id,action,target_type,target_id,project_id,outcome,status,fields,before,after$/);
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(`,${user.email},user,,project.config_restore,`);
  await expect(exportCsv).toBeEnabled();
  await expect(exportCsv).toHaveText('Export CSV');
});

import { expect, test } from './fixtures';
import { createProject, newUser, registerByApi } from './support';

test('the project switcher outside a project names the project last open, however it was reached', async ({ page }) => {
  await registerByApi(page, newUser('switcher'));
  const alpha = await createProject(page, 'Alpha');
  await createProject(page, 'Beta');
  await page.goto('/projects');
  const switcher = page.getByTestId('project-switcher');
  await expect(switcher).toContainText('Beta');

  // Alpha opened by its address, not through the switcher: it becomes the active project. Reads of the
  // active project are held until the user has left, as on a slow network: leaving before one answered must
  // not leave Alpha unrecorded.
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/projects\.getActive/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`/projects/${alpha}/identities`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Identities');
  await expect(switcher).toContainText('Alpha');
  await page.getByTestId('nav-projects').click();
  release();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Projects');
  await expect(switcher).toContainText('Alpha');
  // And after a reload, from the server.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Projects');
  await expect(switcher).toContainText('Alpha');
});

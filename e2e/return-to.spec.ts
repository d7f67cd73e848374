import { expect, test } from '@playwright/test';
import { createProject, fillLogin, newUser, register, signOut } from './support';

test('a signed-out visit to a project page goes through login and comes back', async ({ page }) => {
  const user = newUser('returner');
  await register(page, user);
  const projectId = await createProject(page, 'Return Trip');
  const projectPath = `/projects/${projectId}/get-started`;
  await signOut(page);

  await page.goto(projectPath);
  await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('return_to') === projectPath);

  await fillLogin(page, user.email, user.password);
  await expect(page).toHaveURL((url) => url.pathname === projectPath && !url.searchParams.has('after-login'));
  await expect(page.getByTestId('project-name')).toHaveText('Return Trip');
});

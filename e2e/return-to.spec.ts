import { expect, test } from './fixtures';
import { createProject, expectNoA11yViolations, fillLogin, newUser, register, signOut } from './support';

test('a signed-out visit to a project page goes through login and comes back', async ({ page }) => {
  const user = newUser('returner');
  await register(page, user);
  const projectId = await createProject(page, 'Return Trip');
  const projectPath = `/projects/${projectId}/get-started`;
  const search = '?tab=keys&view=all';
  await signOut(page);

  await page.goto(`${projectPath}${search}`);
  await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('return_to') === `${projectPath}${search}`);
  await expect(page.getByTestId('flow-input-identifier')).toBeVisible();
  await expect(page).toHaveTitle('Sign in · Console');
  await expectNoA11yViolations(page, 'login');

  await fillLogin(page, user.email, user.password);
  // Back at the exact path and query; the after-login marker has left the URL.
  await expect(page).toHaveURL((url) => url.pathname === projectPath && url.search === search);
  await expect(page.getByTestId('project-name')).toHaveText('Return Trip');
});

import { expect, test } from './fixtures';
import { PREFERRED_PLAN_STORAGE_KEY } from '../shared/constants';
import { expectNoA11yViolations } from './support';

test('an unknown address shows the 404 page and the shell stores preferred_plan', async ({ page }) => {
  await page.goto('/no/such/page?preferred_plan=Growth%400');
  await expect(page.getByTestId('not-found-page')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page).toHaveTitle('Page not found · Console');
  expect(await page.evaluate((key) => window.localStorage.getItem(key), PREFERRED_PLAN_STORAGE_KEY)).toBe('Growth@0');
  await expectNoA11yViolations(page, '404');

  await page.goto('/404');
  await expect(page.getByTestId('not-found-page')).toBeVisible();
  await page.getByRole('link', { name: 'Go to the Console' }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/login' && url.searchParams.get('return_to') === '/');
  await expect(page).toHaveTitle('Sign in · Console');
});

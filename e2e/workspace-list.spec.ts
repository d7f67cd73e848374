import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { cookieHeader, expectNoA11yViolations, newUser, registerByApi } from './support';

test('the workspace list pages through every workspace, not only the first page', async ({ page }) => {
  await registerByApi(page, newUser('many-workspaces'));
  const cookie = await cookieHeader(page);
  for (let i = 1; i <= 26; i += 1) {
    const res = await page.request.post(`${E2E_LOCALSTACK_URL}/workspaces`, { headers: { cookie }, data: { name: `Team ${String(i).padStart(2, '0')}` } });
    expect(res.status(), await res.text()).toBe(201);
  }
  await page.goto('/workspaces');
  const rows = page.getByTestId('workspace-link');
  await expect(rows).toHaveCount(25);
  await expect(page.getByTestId('workspaces-pager-previous')).toBeDisabled();
  await expectNoA11yViolations(page, 'workspaces, first page');
  await page.getByTestId('workspaces-pager-next').click();
  await expect(rows).toHaveCount(1);
  await expect(page.getByTestId('workspaces-pager-next')).toBeDisabled();
  // The page is in the URL: a reload stays on it.
  await expect(page).toHaveURL(/[?&]pages=/);
  await page.reload();
  await expect(rows).toHaveCount(1);
  const seen = await rows.allTextContents();
  await page.getByTestId('workspaces-pager-previous').click();
  await expect(rows).toHaveCount(25);
  const first = await rows.allTextContents();
  expect(new Set([...first, ...seen]).size).toBe(26);
});

import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createWorkspace, newUser, registerByApi } from './support';

test('the invoice of a period reads plainly: rows show they open, the credit says what is included, amounts line up', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerByApi(page, newUser('invoices'));
  const workspaceId = await createWorkspace(page, 'Invoices');
  const res = await page.request.put(`${E2E_LOCALSTACK_URL}/local/plan`, { data: { workspace_id: workspaceId, plan: 'Production@0' } });
  expect(res.status(), await res.text()).toBe(204);

  await page.goto(`/workspaces/${workspaceId}/settings/billing`);
  const period = page.getByTestId('invoice-period').first();
  await expect(period).toBeVisible();

  // A closed row shows a chevron that turns when the row opens.
  const toggle = period.locator('.invoice-toggle');
  await expect(toggle).toBeVisible();
  const closed = await toggle.evaluate((el) => getComputedStyle(el).transform);
  await period.locator('summary').click();
  await expect(period.getByTestId('invoice-lines').first()).toBeVisible();
  await expect.poll(() => toggle.evaluate((el) => getComputedStyle(el).transform)).not.toBe(closed);

  // The included credit says how much the plan includes and how much is used, never "× 1".
  const credit = period.getByRole('row', { name: /Included credit/ });
  await expect(credit).toContainText('$21.00 included, $0.00 used');
  await expect(credit).not.toContainText('× 1');

  // Every amount of every invoice of the period ends at the same right edge.
  const edges = await period.locator('td.invoice-amount').evaluateAll((cells) => cells.map((c) => Math.round(c.getBoundingClientRect().right)));
  expect(edges.length).toBeGreaterThan(1);
  expect(new Set(edges).size).toBe(1);
});

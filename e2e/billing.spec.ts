import { expect, test, type Page } from '@playwright/test';
import { E2E_LOCALSTACK_URL } from './ports';
import { createWorkspace, expectNoA11yViolations, newUser, register } from './support';

/** The local stack's developer tools (loopback only): a plan without a purchase, and the billing clock. */
async function setWorkspacePlan(page: Page, workspaceId: string, plan: string): Promise<void> {
  const res = await page.request.put(`${E2E_LOCALSTACK_URL}/local/plan`, { data: { workspace_id: workspaceId, plan } });
  expect(res.status(), await res.text()).toBe(204);
}
async function advanceBillingClock(page: Page, days: number): Promise<void> {
  const res = await page.request.put(`${E2E_LOCALSTACK_URL}/local/clock`, { data: { advance_days: days } });
  expect(res.status(), await res.text()).toBe(200);
}

test('a production project needs a paid plan; the billing page then shows the plan, the estimate, the invoices and the portal', async ({ page }) => {
  await register(page, newUser('payer'));
  const workspaceId = await createWorkspace(page, 'Billing journey');

  // On Develop a production project is refused, and the prompt names the cheapest plan that allows one.
  await page.goto(`/projects/create?workspace=${workspaceId}`);
  await page.getByTestId('project-name-input').fill('Storefront');
  await page.getByTestId('project-environment-select').selectOption('prod');
  await page.getByTestId('create-project-submit').click();
  const prompt = page.getByTestId('upgrade-prompt');
  await expect(prompt).toContainText('production projects');
  await expect(prompt.getByTestId('upgrade-link')).toHaveAttribute('href', `/workspaces/${workspaceId}/settings/subscription`);

  await page.goto(`/workspaces/${workspaceId}/settings/billing`);
  await expect(page.getByTestId('invoices-card').getByTestId('empty-state')).toContainText('No invoices yet');
  await expect(page.getByTestId('billing-plan-name')).toHaveText('Develop');

  await setWorkspacePlan(page, workspaceId, 'Production@0');
  await page.reload();
  await expect(page.getByTestId('billing-plan-name')).toHaveText('Production');
  await expect(page.getByTestId('billing-estimate')).toHaveText('$70.00');
  await expect(page.getByTestId('usage-chart')).toContainText('Daily active users');
  await expect(page.getByTestId('invoice-period')).toHaveCount(1);
  await expect(page.getByTestId('invoice-status')).toHaveText('Estimate');
  await expectNoA11yViolations(page, 'workspace billing');

  // A month later the first period is closed and paid, and the next one is the estimate.
  await advanceBillingClock(page, 32);
  await page.reload();
  await expect(page.getByTestId('invoice-period')).toHaveCount(2);
  await expect(page.getByTestId('invoice-status')).toHaveText(['Estimate', 'Paid']);
  await page.getByTestId('invoice-period').nth(1).locator('summary').click();
  await expect(page.getByTestId('invoice-period').nth(1)).toContainText('Production plan (monthly)');

  await page.getByTestId('billing-portal-button').click();
  await expect(page).toHaveURL(/\/portal\/[A-Za-z0-9_-]+$/);
  await expect(page.getByTestId('portal-payment-method')).toContainText('4242');
  await page.getByRole('link', { name: 'Return to the console' }).click();
  await expect(page).toHaveURL(new RegExp(`/workspaces/${workspaceId}/settings/billing$`));
});

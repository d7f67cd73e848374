import { expect, test, type Page } from './fixtures';
import { E2E_CLOCK_LOCALSTACK_URL, E2E_CLOCK_URL } from './ports';
import { createWorkspace, expectNoA11yViolations, newUser, registerByApi } from './support';

// These journeys move the stack's clock by months: they run on a console and stack of their own.
test.use({ baseURL: E2E_CLOCK_URL });
// One after the other: the first moves the clock a month on, which would expire the second's invite mid-way.
test.describe.configure({ mode: 'default' });

/** The local stack's developer tools (loopback only): a plan without a purchase, and the billing clock. */
async function setWorkspacePlan(page: Page, workspaceId: string, plan: string): Promise<void> {
  const res = await page.request.put(`${E2E_CLOCK_LOCALSTACK_URL}/local/plan`, { data: { workspace_id: workspaceId, plan } });
  expect(res.status(), await res.text()).toBe(204);
}
async function advanceBillingClock(page: Page, days: number): Promise<void> {
  const res = await page.request.put(`${E2E_CLOCK_LOCALSTACK_URL}/local/clock`, { data: { advance_days: days } });
  expect(res.status(), await res.text()).toBe(200);
}

test('a production project needs a paid plan; the billing page then shows the plan, the estimate, the invoices and the portal', async ({ page }) => {
  await registerByApi(page, newUser('payer'));
  const workspaceId = await createWorkspace(page, 'Billing journey');

  // On Develop production cannot be chosen, and the prompt names the cheapest plan that allows it.
  await page.goto(`/projects/create?workspace=${workspaceId}`);
  await expect(page.getByTestId('project-environment-select').locator('option[value="prod"]')).toBeDisabled();
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

test('an owner on Develop is refused a second seat, upgrades to Production monthly in euros, invites the colleague and sees the invoice preview', async ({ page }) => {
  const owner = newUser('upgrader');
  const colleague = newUser('second-seat');
  await registerByApi(page, owner);
  const workspaceId = await createWorkspace(page, 'Upgrade journey');

  // Develop has one seat, the owner's: Invite is disabled up front and the prompt names Production.
  await page.goto(`/workspaces/${workspaceId}/settings/members`);
  await expect(page.getByTestId('invite-open')).toBeDisabled();
  await expect(page.getByTestId('upgrade-prompt')).toContainText('Production');
  await page.getByTestId('upgrade-link').click();
  const dialog = page.getByTestId('invite-dialog');

  // The subscription page: Develop is current; Production, monthly, in euros, with what changes first.
  await expect(page).toHaveURL(new RegExp(`/workspaces/${workspaceId}/settings/subscription$`));
  await expect(page.getByTestId('plan-card-develop').getByTestId('plan-current')).toBeVisible();
  await page.getByTestId('plan-card-production').click();
  await page.getByTestId('currency-switch').getByText('EUR').click();
  await expect(page.getByTestId('plan-card-production').getByTestId('plan-price')).toHaveText('€70 a month');
  await page.getByTestId('interval-switch').getByText('Yearly').click();
  await expect(page.getByTestId('plan-card-production').getByTestId('plan-price')).toHaveText('€770 a year');
  await page.getByTestId('interval-switch').getByText('Monthly').click();
  // Checked from the top: scrolled, the header's links sit under the sticky top bar, as on every page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectNoA11yViolations(page, 'subscription page');
  await page.getByTestId('plan-change-open').click();
  const confirm = page.getByTestId('plan-change-dialog');
  await expect(confirm.getByTestId('plan-price-difference')).toContainText('€70 more a month');
  await expect(confirm.getByTestId('plan-gained')).toContainText('5 Team members');
  await confirm.getByTestId('plan-change-confirm').click();
  await expect(confirm).toBeHidden();
  await expect(page.getByTestId('plan-card-production').getByTestId('plan-current')).toBeVisible();

  // Five seats now: the colleague is invited.
  await page.goto(`/workspaces/${workspaceId}/settings/members`);
  await page.getByTestId('invite-open').click();
  await expect(dialog.getByTestId('seats-left')).toHaveText('4 of 5 seats left');
  await dialog.getByTestId('invite-email').fill(colleague.email);
  await dialog.getByTestId('invite-submit').click();
  await expect(page.getByText(`Invite sent to ${colleague.email}`)).toBeVisible();

  // The invoice preview: this period's estimate in euros.
  await page.goto(`/workspaces/${workspaceId}/settings/billing`);
  await expect(page.getByTestId('billing-plan-name')).toHaveText('Production');
  await expect(page.getByTestId('billing-estimate')).toHaveText('€70.00');
  await expect(page.getByTestId('invoice-status').first()).toHaveText('Estimate');
  await expect(page.getByTestId('invoice-total').first()).toHaveText('€70.00');
});

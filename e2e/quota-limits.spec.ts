import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, createWorkspace, expectNoA11yViolationsInBothThemes, newUser, registerByApi } from './support';

test('plan limits show before the user acts: production is not offered without a plan for it, a full team cannot be invited to, each with one upgrade link', async ({ page }) => {
  await registerByApi(page, newUser('limits'));
  const workspaceId = await createWorkspace(page, 'Limits');

  // Creating a project: outside a workspace (its own Develop plan) production is not offered.
  await page.goto('/projects/create');
  const environment = page.getByTestId('project-environment-select');
  await expect(environment.locator('option[value="prod"]')).toBeDisabled();
  await expect(environment.locator('option[value="prod"]')).toHaveText('Production (not on this plan)');
  await expect(page.getByText('Production needs a paid plan')).toBeVisible();
  // In a workspace on Develop neither: the prompt names the plan that allows it, with the link.
  await page.getByTestId('project-workspace-select').selectOption(workspaceId);
  await expect(environment.locator('option[value="prod"]')).toBeDisabled();
  await expect(page.getByTestId('upgrade-prompt')).toContainText('The Production plan does.');
  await expect(page.getByTestId('upgrade-link')).toHaveAttribute('href', `/workspaces/${workspaceId}/settings/subscription`);
  await expectNoA11yViolationsInBothThemes(page, 'create project, production not on the plan');

  // In a workspace on Production it is, and the prompt goes away.
  await page.getByTestId('project-workspace-select').selectOption('');
  const plan = await page.request.put(`${E2E_LOCALSTACK_URL}/local/plan`, { data: { workspace_id: workspaceId, plan: 'Production@0' } });
  expect(plan.status()).toBe(204);
  await page.getByTestId('project-workspace-select').selectOption(workspaceId);
  await expect(environment.locator('option[value="prod"]')).toBeEnabled();
  await expect(page.getByTestId('upgrade-prompt')).toHaveCount(0);
  await page.getByTestId('project-name-input').fill('Live');
  await environment.selectOption('prod');
  await page.getByTestId('create-project-submit').click();
  await expect(page).toHaveURL(/\/get-started$/);

  // A project of its own on Develop: its settings do not offer production, and link to its billing.
  const projectId = await createProject(page, 'Side project');
  await page.goto(`/projects/${projectId}/settings`);
  await expect(page.getByTestId('project-environment-select').locator('option[value="prod"]')).toBeDisabled();
  await expect(page.getByTestId('upgrade-link')).toHaveAttribute('href', `/projects/${projectId}/settings/billing`);

  // Its team has one seat, in use: Invite is disabled, said once, with the upgrade link.
  await page.goto(`/projects/${projectId}/settings/collaborators`);
  await expect(page.getByTestId('seats-full')).toHaveText('1 of 1 seats in use');
  await expect(page.getByTestId('invite-open')).toBeDisabled();
  await expect(page.getByTestId('upgrade-prompt')).toHaveCount(1);
  await expect(page.getByTestId('upgrade-link')).toHaveAttribute('href', `/projects/${projectId}/settings/billing`);
  await expect(page.getByTestId('toast')).toHaveCount(0);
  await expectNoA11yViolationsInBothThemes(page, 'collaborators with every seat in use');
});

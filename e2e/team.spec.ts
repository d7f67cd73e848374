import { expect, test, type Page } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, createWorkspace, expectNoA11yViolations, fillLogin, inviteLink, newUser, registerByApi, setProjectPlan, signOut } from './support';

/** The path of the newest invite mailed to `email`, waited for until it is there. */
async function invitePath(page: Page, email: string): Promise<string> {
  const url = await inviteLink(page, email);
  return `${url.pathname}${url.search}`;
}

test('an owner invites a colleague, who registers from the emailed link and works on the project as a developer who cannot delete it', async ({ page }) => {
  const owner = newUser('owner');
  const colleague = newUser('colleague');
  await registerByApi(page, owner);
  const projectId = await createProject(page, 'Team journey');

  // On Develop the project has one seat, the owner's: Invite is disabled before anyone fills it in, and the
  // page names the plan that has more.
  await page.goto(`/projects/${projectId}/settings/collaborators`);
  await expect(page.getByTestId('members-table')).toContainText(owner.email);
  await expect(page.getByTestId('seats-full')).toHaveText('1 of 1 seats in use');
  // The role picker is named for assistive technology, while on screen the column header names it.
  await expect(page.getByRole('combobox', { name: `Role of ${owner.email}` })).toBeVisible();
  expect((await page.getByTestId('members-table').getByText(`Role of ${owner.email}`).boundingBox())?.width ?? 0).toBeLessThanOrEqual(1);
  await expect(page.getByTestId('invite-open')).toBeDisabled();
  await expect(page.getByTestId('upgrade-prompt')).toContainText('Production');
  await expectNoA11yViolations(page, 'collaborators with every seat in use');

  // On Production there are five seats.
  await setProjectPlan(page, projectId, 'Production@0');
  await page.reload();
  const dialog = page.getByTestId('invite-dialog');
  await page.getByTestId('invite-open').click();
  await expect(dialog.getByTestId('seats-left')).toHaveText('4 of 5 seats left');
  await dialog.getByTestId('invite-email').fill(colleague.email);
  await dialog.getByTestId('invite-submit').click();
  await expect(page.getByText(`Invite sent to ${colleague.email}`)).toBeVisible();
  await expect(page.getByTestId('invites-table')).toContainText(colleague.email);
  await expectNoA11yViolations(page, 'collaborators page with a pending invite');

  // The colleague opens the emailed link signed out, sees who invited them to what, and registers from it.
  const link = await invitePath(page, colleague.email);
  await signOut(page);
  await page.goto(link);
  await expect(page.getByTestId('linked-invite-text')).toContainText('Team journey');
  await expect(page.getByTestId('linked-invite-text')).toContainText(owner.name);
  await expectNoA11yViolations(page, 'invite page, signed out');
  await page.getByTestId('linked-invite-register').click();
  await expect(page).toHaveURL(/\/registration/);
  const form = page.getByTestId('flow-form');
  await form.getByTestId('flow-input-traits.email').fill(colleague.email);
  await form.getByTestId('flow-input-traits.name').fill(colleague.name);
  await form.getByTestId('flow-input-password').fill(colleague.password);
  await form.getByRole('button', { name: /sign up|register|create/i }).click();

  // Back on the invite, signed in: accept, and land in the project's collaborators as a developer.
  await expect(page).toHaveURL(/\/invites\?invite=/);
  await page.getByTestId('linked-invite-accept').click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/settings/collaborators`));
  await expect(page.getByTestId(`member-role-text-${colleague.email}`)).toHaveText('Developer');
  // A developer sees the owner-only actions disabled.
  await expect(page.getByTestId('invite-open')).toBeDisabled();

  await page.goto(`/projects/${projectId}/settings`);
  await expect(page.getByTestId('project-settings-page')).toBeVisible();
  await expect(page.getByTestId('delete-project-button')).toBeDisabled();
});

test('an owner creates a workspace API key, copies the secret shown once, and deletes the key', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await registerByApi(page, newUser('keys'));
  const workspaceId = await createWorkspace(page, 'Automation');

  await page.goto(`/workspaces/${workspaceId}/settings/api-keys`);
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await page.getByTestId('api-key-open').click();
  const dialog = page.getByTestId('api-key-dialog');
  await dialog.getByTestId('api-key-name').fill('CI deploys');
  await dialog.getByTestId('api-key-submit').click();
  const secret = dialog.getByTestId('api-key-secret');
  await expect(secret).toHaveText(/^ory_wak_/);
  const value = (await secret.textContent())!;
  await expectNoA11yViolations(page, 'new API key dialog');
  await dialog.getByTestId('api-key-copy').click();
  await expect(dialog.getByTestId('api-key-copy')).toHaveAttribute('data-copied', 'true');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value);
  await dialog.getByTestId('api-key-done').click();

  const table = page.getByTestId('api-keys-table');
  await expect(table).toContainText('CI deploys');
  await expect(table).toContainText(value.slice(-4));
  await expect(table).not.toContainText(value);

  await page.getByTestId('api-key-delete-CI deploys').click();
  const confirm = page.getByTestId('delete-api-key-dialog');
  await expect(confirm).toContainText('stops working');
  await confirm.getByTestId('confirm-button').click();
  await expect(page.getByText('API key deleted')).toBeVisible();
  await expect(page.getByTestId('empty-state')).toBeVisible();
});

test('a developer reads why owner actions are greyed out and leaves the workspace; the owner deletes it once it is empty', async ({ page }) => {
  const owner = newUser('ws-owner');
  const colleague = newUser('ws-dev');
  await registerByApi(page, owner);
  const workspaceId = await createWorkspace(page, 'Leaving crew');
  const res = await page.request.put(`${E2E_LOCALSTACK_URL}/local/plan`, { data: { workspace_id: workspaceId, plan: 'Production@0' } });
  expect(res.status(), await res.text()).toBe(204);

  await page.goto(`/workspaces/${workspaceId}/settings/members`);
  await page.getByTestId('invite-open').click();
  const dialog = page.getByTestId('invite-dialog');
  await dialog.getByTestId('invite-email').fill(colleague.email);
  await dialog.getByTestId('invite-submit').click();
  await expect(page.getByText(`Invite sent to ${colleague.email}`)).toBeVisible();

  // The colleague registers from the emailed link and accepts as a developer.
  const link = await invitePath(page, colleague.email);
  await signOut(page);
  await page.goto(link);
  await page.getByTestId('linked-invite-register').click();
  const form = page.getByTestId('flow-form');
  await form.getByTestId('flow-input-traits.email').fill(colleague.email);
  await form.getByTestId('flow-input-traits.name').fill(colleague.name);
  await form.getByTestId('flow-input-password').fill(colleague.password);
  await form.getByRole('button', { name: /sign up|register|create/i }).click();
  await expect(page).toHaveURL(/\/invites\?invite=/);
  await page.getByTestId('linked-invite-accept').click();
  await expect(page).toHaveURL(new RegExp(`/workspaces/${workspaceId}`));

  // Every greyed-out action says why.
  await page.goto(`/workspaces/${workspaceId}/settings/members`);
  await expect(page.getByTestId('invite-open')).toBeDisabled();
  await expect(page.getByTestId('team-owner-note')).toContainText('Only an owner can invite people');
  await page.goto(`/workspaces/${workspaceId}/settings`);
  await expect(page.getByTestId('delete-workspace-button')).toBeDisabled();
  await expect(page.getByTestId('delete-workspace-owner-note')).toHaveText('Only an owner can delete this workspace.');
  await expect(page.getByTestId('rename-owner-note')).toBeVisible();
  await expectNoA11yViolations(page, 'workspace settings as a developer');

  // Leaving asks first, then the workspace is gone from the developer's list.
  await page.getByTestId('leave-workspace-button').click();
  await page.getByTestId('leave-workspace-dialog').getByTestId('confirm-button').click();
  await expect(page).toHaveURL(/\/workspaces$/);
  await expect(page.getByText('You left Leaving crew')).toBeVisible();

  // The owner deletes the now empty workspace by typing its name.
  await signOut(page);
  await page.goto('/login');
  await fillLogin(page, owner.email, owner.password);
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`/workspaces/${workspaceId}/settings`);
  await page.getByTestId('delete-workspace-button').click();
  const confirm = page.getByTestId('delete-workspace-dialog');
  await expect(confirm.getByTestId('confirm-button')).toBeDisabled();
  await confirm.getByTestId('confirm-input').fill('Leaving crew');
  await confirm.getByTestId('confirm-button').click();
  await expect(page).toHaveURL(/\/workspaces$/);
  await expect(page.getByText('Workspace Leaving crew deleted')).toBeVisible();
});

import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createWorkspace, expectNoA11yViolationsInBothThemes, expectNoHorizontalScroll, inviteLink, newUser, register, signOut, verifyEmail } from './support';

test('an invite names its workspace and inviter everywhere, is counted in the sidebar and on the projects page, and lands on one centred card', async ({ page }) => {
  const owner = newUser('inviter');
  const invitee = newUser('invitee');
  await register(page, owner);
  const workspaceId = await createWorkspace(page, 'Northwind');
  const plan = await page.request.put(`${E2E_LOCALSTACK_URL}/local/plan`, { data: { workspace_id: workspaceId, plan: 'Production@0' } });
  expect(plan.status()).toBe(204);
  await page.goto(`/workspaces/${workspaceId}/settings/members`);
  await page.getByTestId('invite-open').click();
  await page.getByTestId('invite-email').fill(invitee.email);
  await page.getByTestId('invite-submit').click();
  await expect(page.getByText(`Invite sent to ${invitee.email}`)).toBeVisible();
  const link = await inviteLink(page, invitee.email);
  const path = `${link.pathname}${link.search}`;

  // A wrong token shows nothing of the invite: no inviter, invitee or workspace.
  await signOut(page);
  const wrong = new URL(link);
  wrong.searchParams.set('token', '00000000-0000-4000-8000-000000000000');
  await page.goto(`${wrong.pathname}${wrong.search}`);
  const card = page.getByTestId('invite-landing');
  await expect(card.getByTestId('error-state')).toContainText('This invite could not be found');
  await expect(page.locator('body')).not.toContainText('Northwind');
  await expect(page.locator('body')).not.toContainText(owner.name);
  await expect(page.locator('body')).not.toContainText(invitee.email);

  // Signed out, the right link: one card, centred like the sign-in page, naming workspace and inviter.
  await page.goto(path);
  await expect(card.getByTestId('linked-invite-text')).toContainText('Northwind');
  await expect(card.getByTestId('linked-invite-text')).toContainText(owner.name);
  const box = (await card.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(Math.abs(box.x + box.width / 2 - width / 2)).toBeLessThan(2);
  await expectNoA11yViolationsInBothThemes(page, 'invite landing, signed out');

  // The invitee registers on their own and verifies the invited address (an address merely typed in proves
  // nothing): the Invites entry counts the invite, /projects says so.
  await register(page, invitee);
  await verifyEmail(page, invitee.email);
  await page.goto('/projects');
  await expect(page.getByTestId('invites-banner')).toContainText('You have an invite waiting for your answer.');
  await expect(page.getByTestId('sidebar').getByTestId('nav-invites-count')).toHaveText(/^1/);
  await page.getByTestId('invites-banner-link').click();
  await expect(page).toHaveURL(/\/invites$/);
  const row = page.getByTestId('my-invites-table');
  await expect(row).toContainText('Northwind (workspace)');
  await expect(row).toContainText(owner.name);
  await expect(row).not.toContainText('A workspace');
  await expectNoA11yViolationsInBothThemes(page, 'invites list');

  // Signed in on the link: the invite once, on its card, not a second time in a list.
  await page.goto(path);
  await expect(card.getByTestId('linked-invite-text')).toContainText('Northwind');
  await expect(page.getByTestId('my-invites')).toHaveCount(0);
  await expect(page.getByText('Northwind', { exact: false })).toHaveCount(1);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalScroll(page);
  await expectNoA11yViolationsInBothThemes(page, 'invite landing at 390 px, signed in');
  await page.setViewportSize({ width: 1280, height: 800 });

  await card.getByTestId('linked-invite-accept').click();
  await expect(page).toHaveURL(new RegExp(`/workspaces/${workspaceId}$`));
  await page.goto('/projects');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Projects');
  await expect(page.getByTestId('invites-banner')).toHaveCount(0);
  await expect(page.getByTestId('sidebar').getByTestId('nav-invites-count')).toHaveCount(0);
});

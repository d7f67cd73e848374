import { expect, test, type Page } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { cookieHeader, createProject, createWorkspace, expectNoA11yViolations, newUser, projectIdFromUrl, readProjectUpstream, registerByApi, setProjectPlan } from './support';

/** The project's full configuration as the local stack holds it (GET /projects/{id}). */
async function configurationUpstream(page: Page, projectId: string): Promise<{ name: string; cors_public?: { enabled?: boolean; origins?: string[] }; services: Record<string, unknown> }> {
  const res = await page.request.get(`${E2E_LOCALSTACK_URL}/projects/${projectId}`, { headers: { cookie: await cookieHeader(page) } });
  expect(res.ok(), await res.text()).toBe(true);
  return res.json();
}

/** Reads the JSON of a configuration form, changes it, and writes it back. */
async function editJson(page: Page, testId: string, change: (value: Record<string, unknown>) => void): Promise<void> {
  const field = page.getByTestId(`${testId}-text`);
  const value = JSON.parse(await field.inputValue()) as Record<string, unknown>;
  change(value);
  await field.fill(JSON.stringify(value, null, 2));
}

test('an owner edits the whole configuration, copies the project, manages its billing and invites, and moves it into a workspace', async ({ page }) => {
  // Six pages and a dozen saves in one journey: a budget that holds on a loaded machine.
  test.setTimeout(180_000);
  const owner = newUser('admin');
  await registerByApi(page, owner);
  const projectId = await createProject(page, 'Admin journey');

  // Advanced: the configuration as one document, replaced from the revision it was read at.
  await page.goto(`/projects/${projectId}/settings/advanced`);
  const card = page.getByTestId('configuration-card');
  await expect(card.getByTestId('configuration-document-text')).toHaveValue(/"services"/);
  await editJson(page, 'configuration-document', (config) => {
    config.cors_public = { enabled: true, origins: ['https://app.example.com'] };
  });
  await card.getByTestId('configuration-document-submit').click();
  await expect(page.getByText('Configuration saved.')).toBeVisible();
  await expect.poll(async () => (await configurationUpstream(page, projectId)).cors_public).toEqual({ enabled: true, origins: ['https://app.example.com'] });
  await expectNoA11yViolations(page, 'project configuration');

  // Not JSON: said in place, nothing sent.
  await card.getByTestId('configuration-document-text').fill('{ "name": ');
  await card.getByTestId('configuration-document-submit').click();
  await expect(card.getByTestId('configuration-document')).toContainText('This is not valid JSON');

  // A JSON patch: a path it may not touch is refused with what to fix, a good one applies.
  await card.getByTestId('configuration-tabs-patch').click();
  await card.getByTestId('configuration-patch-text').fill('[{ "op": "replace", "path": "/slug", "value": "mine" }]');
  await card.getByTestId('configuration-patch-submit').click();
  await expect(card.getByTestId('configuration-patch')).toContainText('cannot be patched');
  await card.getByTestId('configuration-patch-text').fill('[{ "op": "replace", "path": "/name", "value": "Admin journey, patched" }]');
  await card.getByTestId('configuration-patch-submit').click();
  await expect(page.getByText('Patch applied.')).toBeVisible();
  await expect.poll(async () => (await readProjectUpstream(page, projectId)).current_revision.name).toBe('Admin journey, patched');

  // The normalized revision, shown as it is now (after the patch), saved as a new revision.
  await card.getByTestId('configuration-tabs-normalized').click();
  await expect(card.getByTestId('configuration-normalized-text')).toHaveValue(/"name": "Admin journey, patched"/);
  await editJson(page, 'configuration-normalized', (revision) => {
    revision.name = 'Admin journey';
  });
  await card.getByTestId('configuration-normalized-submit').click();
  await expect(page.getByText('Revision saved.')).toBeVisible();
  await expect.poll(async () => (await readProjectUpstream(page, projectId)).current_revision.name).toBe('Admin journey');

  // A copy carries the configuration, not the name.
  await page.getByTestId('copy-project-name').fill('Admin copy');
  await page.getByTestId('copy-project-submit').click();
  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}\/get-started$/);
  const copyId = projectIdFromUrl(page.url());
  expect(copyId).not.toBe(projectId);
  const copy = await configurationUpstream(page, copyId);
  expect(copy.name).toBe('Admin copy');
  expect(copy.cors_public).toEqual({ enabled: true, origins: ['https://app.example.com'] });
  expect(Object.keys(copy.services).sort()).toEqual(Object.keys((await configurationUpstream(page, projectId)).services).sort());

  // Its own subscription, with room to invite; an invite cancelled is a past invite, and can be deleted.
  await setProjectPlan(page, projectId, 'Production@0');
  await page.goto(`/projects/${projectId}/settings/collaborators`);
  await page.getByTestId('invite-open').click();
  const invitee = `past-${Date.now().toString(36)}@example.com`;
  await page.getByTestId('invite-email').fill(invitee);
  await page.getByTestId('invite-submit').click();
  await page.getByTestId(`invite-cancel-${invitee}`).click();
  await expect(page.getByTestId(`past-invite-status-${invitee}`)).toHaveText('Cancelled');
  // Days read the same everywhere in the console: "Nov 25, 2026".
  await expect(page.getByTestId('past-invites-table').getByRole('row').filter({ hasText: invitee })).toContainText(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
  await expectNoA11yViolations(page, 'past invites');
  // The toasts of the invite and of its cancelling sit over the row's Delete, and a toast stays while the
  // pointer rests on it (a click's aim at Delete is such a rest): with the pointer away, they go by themselves.
  await page.mouse.move(0, 0);
  await expect(page.getByTestId('toast')).toHaveCount(0);
  await page.getByTestId(`invite-delete-${invitee}`).click();
  await expect(page.getByTestId('past-invites-table')).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('members-table')).toContainText(owner.email);
  await expect(page.getByText(invitee)).toHaveCount(0);

  // Unlinking the subscription: the project falls back to Develop.
  await page.goto(`/projects/${projectId}/settings/billing`);
  await page.getByTestId('unlink-subscription-button').click();
  await expectNoA11yViolations(page, 'unlink subscription');
  await page.getByTestId('unlink-subscription-dialog').getByTestId('confirm-button').click();
  await expect(page.getByText('The subscription is unlinked.')).toBeVisible();
  await expect(page.getByTestId('unlink-subscription-card')).toHaveCount(0);
  await expect.poll(async () => (await readProjectUpstream(page, projectId) as unknown as { subscription_id: string | null }).subscription_id).toBeNull();

  // Moving it into a workspace, after a confirmation naming both.
  const workspaceId = await createWorkspace(page, 'Destination');
  await page.goto(`/projects/${projectId}/settings`);
  await page.getByTestId('move-project-workspace').selectOption({ label: 'Destination' });
  await page.getByTestId('move-project-button').click();
  await expect(page.getByTestId('move-project-dialog')).toContainText('Destination');
  await page.getByTestId('move-project-dialog').getByTestId('confirm-button').click();
  await expect(page.getByText('Admin journey is now in Destination.')).toBeVisible();
  await expect.poll(async () => (await readProjectUpstream(page, projectId) as unknown as { workspace_id: string | null }).workspace_id).toBe(workspaceId);
  // Now in its only workspace, the card says there is nowhere else to go.
  await expect(page.getByTestId('move-project-none')).toBeVisible();
});

test('the schema editor shows the identity meta-schema it checks against', async ({ page }) => {
  await registerByApi(page, newUser('meta'));
  const projectId = await createProject(page, 'Meta');
  await page.goto(`/projects/${projectId}/identity-schema`);
  await page.locator('[data-preset="preset://email"]').getByTestId('start-from-preset').click();
  const meta = page.getByTestId('meta-schema');
  await meta.locator('summary').click();
  await expect(meta.getByTestId('meta-schema-text')).toContainText('ory.sh/kratos');
});

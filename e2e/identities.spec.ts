import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, expectNoA11yViolations, newUser, registerByApi } from './support';

/** An end user of the project signs up through the project's own API (a native app), so it has a session. */
async function endUserSignsUp(request: import('@playwright/test').APIRequestContext, slug: string, email: string): Promise<void> {
  const base = `${E2E_LOCALSTACK_URL}/project-api/${slug}`;
  const flow = await (await request.get(`${base}/self-service/registration/api`)).json();
  const res = await request.post(`${base}/self-service/registration?flow=${flow.id}`, {
    data: { method: 'password', password: 'a-Long-and-unusual-passw0rd', traits: { email, name: 'Signed Up' } },
  });
  expect(res.status(), await res.text()).toBe(200);
}

test('an identity is created from the schema form, found by its domain, edited, and its session revoked', async ({ page }) => {
  await registerByApi(page, newUser('people'));
  const projectId = await createProject(page, 'People');
  const slug = await page.evaluate(async (id) => {
    const res = await fetch(`/api/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ projectId: id }))}`);
    return ((await res.json()) as { result: { data: { slug: string } } }).result.data.slug;
  }, projectId);

  await page.goto(`/projects/${projectId}/identities`);
  await expect(page.getByTestId('identities-card').getByTestId('empty-state')).toContainText('No identities yet');

  // The create dialog's form comes from the schema, and checks it as the identity provider does.
  await page.getByTestId('identity-create-open').click();
  const dialog = page.getByTestId('identity-create-dialog');
  await dialog.getByTestId('trait-email').fill('not-an-email');
  await dialog.getByTestId('identity-create-submit').click();
  await expect(dialog.getByText('Must be a valid email')).toBeVisible();
  await dialog.getByTestId('trait-email').fill('ada@lovelace.example');
  await dialog.getByTestId('trait-name').fill('Ada');
  await expectNoA11yViolations(page, 'create identity dialog');
  await dialog.getByTestId('identity-create-submit').click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/identities/[0-9a-f-]{36}$`));
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ada@lovelace.example');

  // Another identity signs up on its own and gets a session; both are found by the domain.
  await endUserSignsUp(page.request, slug, 'grace@lovelace.example');
  await endUserSignsUp(page.request, slug, 'linus@elsewhere.example');
  await page.goto(`/projects/${projectId}/identities`);
  // Newest first, with the project's total.
  await expect(page.getByTestId('identities-total')).toHaveText('3 identities');
  await expect(page.getByTestId('identity-link')).toHaveText(['linus@elsewhere.example', 'grace@lovelace.example', 'ada@lovelace.example']);
  await page.getByTestId('identities-search').fill('@lovelace.example');
  await expect(page).toHaveURL(/search=%40lovelace.example/);
  // Both of the domain, and nothing else; the total stays the project's.
  await expect(page.getByTestId('identity-link')).toHaveCount(2);
  await expect(page.getByTestId('identities-total')).toHaveText('3 identities');
  await expect(page.getByTestId('identities-table')).toContainText('ada@lovelace.example');
  await expect(page.getByTestId('identities-table')).toContainText('grace@lovelace.example');
  await expect(page.getByTestId('identities-table')).not.toContainText('linus@elsewhere.example');
  await expectNoA11yViolations(page, 'identities searched by domain');

  // Edit a trait in the schema form.
  await page.getByTestId('identity-link').filter({ hasText: 'grace@lovelace.example' }).click();
  const traits = page.getByTestId('identity-traits-card');
  await traits.getByTestId('trait-name').fill('Grace Hopper');
  await traits.getByTestId('identity-traits-save').click();
  await expect(page.getByText('Traits saved')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('identity-traits-card').getByTestId('trait-name')).toHaveValue('Grace Hopper');

  // Revoke its session.
  const sessions = page.getByTestId('identity-sessions-card');
  await expect(sessions.getByTestId('session-revoke')).toHaveCount(1);
  await sessions.getByTestId('session-revoke').click();
  await page.getByTestId('session-revoke-dialog').getByTestId('confirm-button').click();
  await expect(sessions.getByTestId('session-revoke')).toHaveCount(0);
  await expect(sessions.getByTestId('sessions-table')).toContainText('Revoked');

  // A recovery code for the identity, shown once to copy.
  await page.getByTestId('recovery-code-create').click();
  await expect(page.getByTestId('recovery-code')).toContainText(/\d{6}/);
  await expectNoA11yViolations(page, 'identity detail');
});

test('a CSV of 1,000 identities with 3 bad rows imports the 997 good ones and reports the rest', async ({ page }) => {
  await registerByApi(page, newUser('importer'));
  const projectId = await createProject(page, 'Imported');
  const lines = ['email,name'];
  for (let i = 0; i < 1000; i++) lines.push(i === 10 || i === 500 || i === 999 ? `broken-${i},Bad ${i}` : `user-${i}@import.example,User ${i}`);
  const file = join(tmpdir(), `identities-${Date.now()}.csv`);
  writeFileSync(file, lines.join('\n'));

  await page.goto(`/projects/${projectId}/identities`);
  await page.getByTestId('identities-import-open').click();
  const dialog = page.getByTestId('import-dialog');
  await dialog.getByTestId('import-file').setInputFiles(file);
  await expect(dialog.getByTestId('import-map-email')).toHaveValue('email');
  await expect(dialog.getByTestId('import-dry-run')).toContainText('997 of 1000 rows are ready; 3 have problems');
  await expect(dialog.getByTestId('import-errors').getByRole('listitem')).toHaveCount(3);
  await expect(dialog.getByTestId('import-errors')).toContainText('Row 12: email: Must be a valid email');
  await dialog.getByTestId('import-submit').click();
  await expect(dialog.getByTestId('import-result')).toHaveText('997 imported, 3 not imported.', { timeout: 60_000 });
  const download = page.waitForEvent('download');
  await dialog.getByTestId('import-report').click();
  expect((await download).suggestedFilename()).toBe('import-failures.csv');
  await dialog.getByTestId('import-done').click();

  // 997 identities are 40 pages of 25: the next page is kept in the URL, and previous comes back to the first.
  const rows = page.getByTestId('identity-link');
  await expect(rows).toHaveCount(25);
  const firstPage = await rows.allTextContents();
  await expect(page.getByTestId('identities-previous')).toBeDisabled();
  await page.getByTestId('identities-next').click();
  await expect(page).toHaveURL(/[?&]pages=/);
  await expect(rows).toHaveCount(25);
  await expect(rows.first()).not.toHaveText(firstPage[0]!);
  await page.reload();
  await expect(page.getByTestId('identities-previous')).toBeEnabled();
  await page.getByTestId('identities-previous').click();
  await expect(rows).toHaveText(firstPage);

  await page.getByTestId('identities-search').fill('user-999');
  await expect(page.getByTestId('identity-link')).toHaveCount(0);
  await page.getByTestId('identities-search').fill('user-998@import.example');
  await expect(page.getByTestId('identity-link')).toHaveText(['user-998@import.example']);
});

test("a project's own schema is named in the table and its filter, and its form follows the author's order of traits", async ({ page }) => {
  await registerByApi(page, newUser('named'));
  const projectId = await createProject(page, 'Named schemas');
  // Traits in an order jsonb would not keep (it puts shorter keys first): email, tier, name.
  const schema = JSON.stringify(
    {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        traits: {
          type: 'object',
          properties: {
            email: { type: 'string', format: 'email', title: 'Work email', 'ory.sh/kratos': { credentials: { password: { identifier: true } } } },
            tier: { type: 'string', title: 'Customer tier' },
            name: { type: 'string', title: 'Full name' },
          },
          required: ['email'],
        },
      },
    },
    null,
    2,
  );
  const failed = await page.evaluate(
    async ({ projectId, schema }) => {
      const mutate = (procedure: string, input: unknown) =>
        fetch(`/api/trpc/${procedure}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-console-request': '1' }, body: JSON.stringify(input) });
      const created = await mutate('schemas.create', { projectId, name: 'Customers', schema });
      if (!created.ok) return await created.text();
      const { id } = ((await created.json()) as { result: { data: { id: string } } }).result.data;
      const set = await mutate('schemas.setDefault', { projectId, schemaId: id });
      return set.ok ? null : await set.text();
    },
    { projectId, schema },
  );
  expect(failed).toBeNull();

  await page.goto(`/projects/${projectId}/identities`);
  await page.getByTestId('identity-create-open').click();
  const dialog = page.getByTestId('identity-create-dialog');
  await expect(dialog.locator('[data-testid^="trait-"]')).toHaveCount(3);
  expect(await dialog.locator('[data-testid^="trait-"]').evaluateAll((inputs) => inputs.map((i) => i.getAttribute('data-testid')))).toEqual([
    'trait-email',
    'trait-tier',
    'trait-name',
  ]);
  await dialog.getByTestId('trait-email').fill('named@shop.example');
  await dialog.getByTestId('identity-create-submit').click();
  await expect(page).toHaveURL(new RegExp(`/projects/${projectId}/identities/[0-9a-f-]{36}$`));

  await page.goto(`/projects/${projectId}/identities`);
  await expect(page.getByTestId('identity-schema')).toHaveText(['Customers']);
  await expect(page.getByTestId('identities-schema-filter').locator('option')).toHaveText(['Any schema', 'Customers']);
});

import { expect, test, type Page } from './fixtures';
import { createProject, newUser, registerByApi } from './support';

/** Texts in `selector` inside main that take more than one line (a word broken or wrapped). */
async function wrapped(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll(`main ${sel}`)) {
      if (!(el as HTMLElement).offsetParent || !el.textContent?.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      if (lines.size > 1) out.push(`${el.tagName.toLowerCase()}.${el.className}: "${el.textContent.trim()}" on ${lines.size} lines`);
    }
    return out;
  }, selector);
}

test('at 1440 px, list pages use the full width; headers, badges and buttons stay on one line; long cells are cut with a tooltip', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await registerByApi(page, newUser('tables'));
  const project = await createProject(page, 'Tables');
  const longName = 'Maximiliana Theodora Konstantinopoulou-Vandersteenhoven de la Cruz y Montenegro';
  await page.evaluate(
    async ({ projectId, name }) => {
      const headers = { 'content-type': 'application/json', 'x-console-request': '1' };
      const schemas = await (await fetch(`/api/trpc/identities.schemas?input=${encodeURIComponent(JSON.stringify({ projectId }))}`, { headers })).json();
      const schemaId = schemas.result.data[0].id as string;
      for (const [i, traits] of [{ email: `short-${Date.now()}@example.com`, name: 'Ada' }, { email: `long-${Date.now()}@example.com`, name }].entries()) {
        const res = await fetch('/api/trpc/identities.create', { method: 'POST', headers, body: JSON.stringify({ projectId, schemaId, traits, state: i === 0 ? 'active' : 'inactive' }) });
        if (!res.ok) throw new Error(await res.text());
      }
    },
    { projectId: project, name: longName },
  );

  await page.goto(`/projects/${project}/identities`);
  const table = page.getByTestId('identities-page').getByRole('table');
  await expect(table.getByRole('row')).toHaveCount(3);

  // The list takes the whole width beside the sidebar, not a centred column.
  const main = await page.locator('main').boundingBox();
  const sidebar = await page.getByTestId('sidebar').boundingBox();
  expect(main!.width).toBeGreaterThanOrEqual(1440 - sidebar!.width - 2);
  const tableBox = await table.boundingBox();
  expect(tableBox!.width).toBeGreaterThan(1040);

  expect(await wrapped(page, 'th')).toEqual([]);
  expect(await wrapped(page, '.badge')).toEqual([]);
  expect(await wrapped(page, '.btn')).toEqual([]);
  await expect(table.locator('.badge', { hasText: 'Inactive' })).toBeVisible();

  // The long name is cut to its column, and its whole text shows on hover.
  const cut = table.locator('[data-truncated]', { hasText: longName });
  await expect(cut).toBeVisible();
  expect(await cut.evaluate((el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).textOverflow === 'ellipsis')).toBe(true);
  expect((await cut.boundingBox())!.height).toBeLessThan(30);
  await cut.hover();
  await expect(page.getByTestId('tooltip')).toContainText(longName);

  // The same rules hold on the collaborators and project list pages.
  for (const path of [`/projects/${project}/settings/collaborators`, '/projects']) {
    await page.goto(path);
    await expect(page.locator('main').getByRole('table').first()).toBeVisible();
    expect(await wrapped(page, 'th'), path).toEqual([]);
    expect(await wrapped(page, '.badge'), path).toEqual([]);
    expect(await wrapped(page, '.btn'), path).toEqual([]);
  }
});

import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { cookieHeader, createWorkspace, newUser, registerByApi } from './support';

test('a create whose answer is lost to a dropped connection is sent again under its key and done once', async ({ page }) => {
  const user = newUser('lost-answer');
  await registerByApi(page, user);
  const name = `Lost answer ${Date.now().toString(36)}`;

  // The first workspaces.create reaches the console and is done there; its answer never reaches the page.
  const keys: (string | null)[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/trpc/workspaces.create')) keys.push(request.headers()['idempotency-key'] ?? null);
  });
  await page.route(
    '**/api/trpc/workspaces.create*',
    async (route) => {
      await route.fetch();
      await route.abort('connectionreset');
    },
    { times: 1 },
  );

  // The page shows the workspace it created, as if nothing had happened.
  const id = await createWorkspace(page, name);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);

  // The request went twice, under one key, and made one workspace.
  expect(keys).toHaveLength(2);
  expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
  expect(keys[1]).toBe(keys[0]);
  const res = await page.request.get(`${E2E_LOCALSTACK_URL}/workspaces?page_size=500`, { headers: { cookie: await cookieHeader(page) } });
  const { workspaces } = (await res.json()) as { workspaces: { id: string; name: string }[] };
  expect(workspaces.filter((w) => w.name === name).map((w) => w.id)).toEqual([id]);
});

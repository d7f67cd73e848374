import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, expectNoA11yViolations, newUser, registerByApi } from './support';

const END_USER_PASSWORD = 'a-Long-and-unusual-passw0rd';

async function slugOf(page: Page, projectId: string): Promise<string> {
  return page.evaluate(async (id) => {
    const res = await fetch(`/api/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ projectId: id }))}`);
    return ((await res.json()) as { result: { data: { slug: string } } }).result.data.slug;
  }, projectId);
}

test('a web hook added on the Actions page is called by a real sign-up with its key, can refuse one with its message, and both calls show in the log', async ({ page }) => {
  // A hook on this machine (the local stack calls nothing beyond it) that refuses addresses of blocked.example.
  const keys: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      keys.push(String(req.headers['x-hook-key']));
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ctx: { identity: { traits: { email: string } } } };
      if (body.ctx.identity.traits.email.endsWith('@blocked.example')) {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ messages: [{ instance_ptr: '#/traits/email', messages: [{ id: 4000100, text: 'This domain may not sign up.', type: 'error' }] }] }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/sign-up`;
  try {
    await registerByApi(page, newUser('hooks'));
    const projectId = await createProject(page, 'Hooked');
    await page.goto(`/projects/${projectId}/developers/actions`);
    await expect(page.getByRole('heading', { level: 1, name: 'Actions' })).toBeVisible();
    await expect(page.getByTestId('actions-empty')).toBeVisible();

    await page.getByTestId('action-new').click();
    const dialog = page.getByTestId('action-dialog');
    await dialog.getByTestId('action-url-input').fill(url);
    await dialog.getByTestId('action-auth').selectOption('api_key');
    await dialog.getByTestId('action-key-name').fill('X-Hook-Key');
    await dialog.getByTestId('action-key-value').fill('hook-key-e2e');
    await dialog.getByTestId('action-can-interrupt').click();
    await expectNoA11yViolations(page);
    await dialog.getByTestId('action-save').click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('actions-table-registration').getByTestId('action-url')).toHaveText(`POST ${url}`);

    const api = `${E2E_LOCALSTACK_URL}/project-api/${await slugOf(page, projectId)}`;
    const signUp = async (email: string) => {
      const flow = await (await page.request.get(`${api}/self-service/registration/api`)).json();
      return page.request.post(`${api}/self-service/registration?flow=${flow.id}`, { data: { method: 'password', password: END_USER_PASSWORD, traits: { email, name: 'End User' } } });
    };
    const welcome = await signUp(`welcome-${Date.now().toString(36)}@example.com`);
    expect(welcome.status(), await welcome.text()).toBe(200);
    const refused = await signUp(`someone-${Date.now().toString(36)}@blocked.example`);
    expect(refused.status()).toBe(400);
    expect(await refused.text()).toContain('This domain may not sign up.');
    expect(keys).toEqual(['hook-key-e2e', 'hook-key-e2e']);

    await page.reload();
    const statuses = page.getByTestId('actions-log-table').getByTestId('call-status');
    await expect(statuses).toHaveText(['Interrupted', 'Success']);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

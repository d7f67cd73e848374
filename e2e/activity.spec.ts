import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext, type Page } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, expectNoA11yViolations, expectNoA11yViolationsInBothThemes, expectNoHorizontalScroll, newUser, registerByApi, setProjectPlan } from './support';

const END_USER_PASSWORD = 'a-Long-and-unusual-passw0rd';

async function slugOf(page: Page, projectId: string): Promise<string> {
  return page.evaluate(async (id) => {
    const res = await fetch(`/api/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ projectId: id }))}`);
    return ((await res.json()) as { result: { data: { slug: string } } }).result.data.slug;
  }, projectId);
}

/** An end user signs up and then signs in through the project's own API (a native app). */
async function endUserSignsUpAndIn(request: APIRequestContext, slug: string, email: string): Promise<void> {
  const base = `${E2E_LOCALSTACK_URL}/project-api/${slug}`;
  const registration = await (await request.get(`${base}/self-service/registration/api`)).json();
  const signedUp = await request.post(`${base}/self-service/registration?flow=${registration.id}`, {
    data: { method: 'password', password: END_USER_PASSWORD, traits: { email, name: 'End User' } },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(200);
  const login = await (await request.get(`${base}/self-service/login/api`)).json();
  const signedIn = await request.post(`${base}/self-service/login?flow=${login.id}`, { data: { method: 'password', identifier: email, password: END_USER_PASSWORD } });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
}

test('a real sign-in shows on the activity charts and in the event list, and a stream receives a signed test event that its log shows', async ({ page }) => {
  // A receiver on this machine, as the local stack only sends to loopback endpoints.
  const received: { body: string; signature: string; timestamp: string; path: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['ory-event-signature']), timestamp: String(req.headers['ory-event-timestamp']), path: req.url ?? '' });
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/ory`;
  try {
    await registerByApi(page, newUser('watcher'));
    const projectId = await createProject(page, 'Watched');
    await endUserSignsUpAndIn(page.request, await slugOf(page, projectId), `watched-${Date.now().toString(36)}@example.com`);

    // Activity: the sign-up and the sign-in are counted, by method too; range and resolution live in the URL.
    await page.goto(`/projects/${projectId}/activity?range=24h`);
    await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
    await expect(page.getByTestId('activity-signins-total')).toHaveText('1');
    await expect(page.getByTestId('activity-signups-total')).toHaveText('1');
    await expect(page.getByTestId('activity-signins-chart').locator('canvas')).toBeVisible();
    await expect(page.getByTestId('activity-method-password')).toContainText('1');
    await expect(page.getByTestId('activity-tokens-empty')).toContainText('request a token');
    await page.getByTestId('activity-resolution').selectOption('15m');
    await expect(page).toHaveURL(/range=24h/);
    await expect(page).toHaveURL(/resolution=15m/);
    await expect(page.getByTestId('activity-signins-total')).toHaveText('1');
    // The charts follow the theme, and the page fits a phone's width.
    await expectNoA11yViolationsInBothThemes(page, undefined, { darkColorsOnly: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoHorizontalScroll(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Events: filtered to sign-ins, the one event opens in the drawer with its attributes.
    await page.goto(`/projects/${projectId}/activity/events?type=LoginSucceeded`);
    await expect(page.getByTestId('event-open')).toHaveCount(1);
    await page.getByTestId('event-open').click();
    await expect(page.getByTestId('event-drawer')).toBeVisible();
    await expect(page.getByTestId('event-attribute-method')).toContainText('password');
    await expectNoA11yViolations(page, '/projects/:project/activity/events [drawer]');
    await page.getByTestId('event-drawer-close').click();
    await expect(page.getByTestId('event-drawer')).toBeHidden();

    // Developers: a stream to the receiver, its secret shown once, a test send, and the log.
    await setProjectPlan(page, projectId, 'enterprise');
    await page.goto(`/projects/${projectId}/developers`);
    await expect(page.getByTestId('event-streams-empty')).toBeVisible();
    await page.getByTestId('event-stream-new').click();
    await page.getByTestId('event-stream-endpoint').fill(endpoint);
    await page.getByTestId('event-stream-create').click();
    const secret = (await page.getByTestId('event-stream-secret-value').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    await page.getByTestId('event-stream-secret-done').click();
    await expect(page.getByTestId('event-streams-table')).toContainText(endpoint);
    await page.getByTestId('event-stream-test').click();
    const testRow = page.getByTestId('event-stream-log-table').getByRole('row', { name: /EventStreamTest/ });
    await expect(testRow).toContainText('Success');
    await expect(testRow).toContainText('204');
    const test = received.find((r) => JSON.parse(r.body).type === 'EventStreamTest');
    expect(test).toBeDefined();
    expect(test!.signature).toBe(`v1=${createHmac('sha256', secret).update(`${test!.timestamp}.${test!.body}`).digest('hex')}`);
    await expectNoA11yViolations(page);

    // Edited: the stream sends to its new endpoint from then on, signed with the same secret.
    await page.getByTestId('event-stream-edit').click();
    const edit = page.getByTestId('event-stream-edit-dialog');
    await expect(edit.getByTestId('event-stream-edit-endpoint')).toHaveValue(endpoint);
    await edit.getByTestId('event-stream-edit-endpoint').fill('ftp://example.com/hooks');
    await edit.getByTestId('event-stream-save').click();
    await expect(edit).toContainText('Enter the endpoint as an https:// URL.');
    await edit.getByTestId('event-stream-edit-endpoint').fill(`${endpoint}/v2`);
    await edit.getByTestId('event-stream-save').click();
    await expect(edit).toBeHidden();
    await expect(page.getByTestId('event-streams-table')).toContainText(`${endpoint}/v2`);
    await page.getByTestId('event-stream-test').click();
    await expect.poll(() => received.filter((r) => r.path === '/hooks/ory/v2').length).toBe(1);
    const moved = received.find((r) => r.path === '/hooks/ory/v2')!;
    expect(moved.signature).toBe(`v1=${createHmac('sha256', secret).update(`${moved.timestamp}.${moved.body}`).digest('hex')}`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

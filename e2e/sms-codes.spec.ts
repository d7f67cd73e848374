import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, expectNoA11yViolations, newUser, registerByApi } from './support';

/** The project's SMS provider, on this machine: keeps what each request carried. */
async function smsProvider(): Promise<{ url: string; received: { key: string | undefined; body: { To?: string; Body?: string } }[]; close: () => Promise<void> }> {
  const received: { key: string | undefined; body: { To?: string; Body?: string } }[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ key: req.headers['x-sms-key'] as string | undefined, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('the passwordless page turns sign-in codes on and sets the SMS channel; an end user with a phone number signs in with the code texted to it', async ({ page, request }) => {
  const provider = await smsProvider();
  try {
    await registerByApi(page, newUser('sms-codes'));
    const projectId = await createProject(page, 'Sms codes');
    const slug = await page.evaluate(async (id) => {
      const res = await fetch(`/api/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ projectId: id }))}`);
      return ((await res.json()) as { result: { data: { slug: string } } }).result.data.slug;
    }, projectId);
    // Users of this project sign in with their phone number (the phone preset marks it as a code identifier via sms).
    await page.evaluate(async (id) => {
      const res = await fetch('/api/trpc/schemas.setDefault', { method: 'POST', headers: { 'content-type': 'application/json', 'x-console-request': '1' }, body: JSON.stringify({ projectId: id, schemaId: 'preset://phone' }) });
      if (!res.ok) throw new Error(await res.text());
    }, projectId);

    await page.goto(`/projects/${projectId}/passwordless`);
    await expect(page.getByRole('heading', { name: 'Passwordless', level: 1 })).toBeVisible({ timeout: 30_000 });
    await page.getByTestId('passwordless-settings-code-passwordless-enabled').check();
    await page.getByTestId('passwordless-settings-form-submit').click();
    await expect(page.getByText('Passwordless settings saved')).toBeVisible();

    const sms = page.getByTestId('passwordless-sms-card');
    await sms.getByTestId('sms-enabled').check();
    await sms.getByTestId('sms-url').fill(provider.url);
    await expect(sms.getByTestId('sms-body-note')).toContainText('"To"');
    await sms.getByTestId('sms-auth-type').selectOption('api_key');
    await sms.getByTestId('sms-api-key-name').fill('X-Sms-Key');
    await sms.getByTestId('sms-secret').fill('Never-Shown-Key');
    await expectNoA11yViolations(page, 'passwordless with sms');
    await sms.getByTestId('sms-config-form-submit').click();
    await expect(page.getByText('SMS settings saved')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('sms-api-key-name')).toHaveValue('X-Sms-Key');
    await expect(page.getByTestId('sms-secret')).toHaveValue('');
    expect(await page.content()).not.toContain('Never-Shown-Key');

    // A test SMS reaches the provider with the key.
    await page.getByTestId('test-send-recipient').fill('+49 151 2345 0001');
    await page.getByTestId('test-send-submit').click();
    await page.getByTestId('test-send-result').click();
    await expect(page.getByTestId('message-status')).toHaveText('Sent', { timeout: 20_000 });
    expect(provider.received.at(-1)).toMatchObject({ key: 'Never-Shown-Key', body: { To: '+4915123450001' } });

    // An end user with a phone number signs in through the project's own API with the code texted to them.
    const phone = '+4915123450002';
    const base = `${E2E_LOCALSTACK_URL}/project-api/${slug}`;
    await page.evaluate(
      async ({ id, phone }) => {
        const input = { projectId: id, schemaId: 'preset://phone', traits: { phone } };
        const res = await fetch('/api/trpc/identities.create', { method: 'POST', headers: { 'content-type': 'application/json', 'x-console-request': '1' }, body: JSON.stringify(input) });
        if (!res.ok) throw new Error(await res.text());
      },
      { id: projectId, phone },
    );
    const flow = await (await request.get(`${base}/self-service/login/api`)).json();
    const sent = await request.post(`${base}/self-service/login?flow=${flow.id}`, { data: { method: 'code', identifier: phone } });
    expect(sent.status()).toBe(400);
    await expect.poll(() => provider.received.find((r) => r.body.To === phone)?.body.Body ?? '', { timeout: 20_000 }).toMatch(/Your login code is: \d{6}/);
    const code = /(\d{6})/.exec(provider.received.find((r) => r.body.To === phone)!.body.Body!)![1];
    const signedIn = await request.post(`${base}/self-service/login?flow=${flow.id}`, { data: { method: 'code', identifier: phone, code } });
    expect(signedIn.status(), await signedIn.text()).toBe(200);

    await page.goto(`/projects/${projectId}/email-delivery`);
    await expect(page.getByTestId('delivery-table')).toContainText(phone);
  } finally {
    await provider.close();
  }
});

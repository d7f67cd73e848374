import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, expectNoA11yViolations, fillLogin, newUser, register, signOut } from './support';

test('an OAuth2 client is created with its secret shown once, gets tokens that follow the lifespan set in the console, is edited and deleted; a web client signs a user in from a relying-party app', async ({ page }) => {
  await register(page, newUser('oauth'));
  const projectId = await createProject(page, 'Apps');
  const slug = await page.evaluate(async (id) => {
    const res = await fetch(`/api/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ projectId: id }))}`);
    return ((await res.json()) as { result: { data: { slug: string } } }).result.data.slug;
  }, projectId);

  await page.goto(`/projects/${projectId}/oauth`);
  await expect(page.getByTestId('empty-state')).toContainText('No OAuth2 clients yet');
  await expectNoA11yViolations(page, 'no OAuth2 clients');

  // Create a machine client in the dialog; its secret is shown once.
  await page.getByTestId('oauth2-client-open').first().click();
  const dialog = page.getByTestId('oauth2-client-dialog');
  await dialog.getByTestId('oauth2-client-name').fill('Nightly reports');
  await dialog.getByTestId('oauth2-client-grant-authorization_code').uncheck();
  await dialog.getByTestId('oauth2-client-grant-refresh_token').uncheck();
  await dialog.getByTestId('oauth2-client-grant-client_credentials').check();
  await dialog.getByTestId('oauth2-client-scope').fill('reports:read');
  await expectNoA11yViolations(page, 'create OAuth2 client dialog');
  await dialog.getByTestId('oauth2-client-submit').click();
  const secret = (await dialog.getByTestId('oauth2-secret-value').textContent())?.trim() ?? '';
  const clientId = (await dialog.getByTestId('oauth2-secret-client-id').textContent())?.trim() ?? '';
  expect(secret.length).toBeGreaterThanOrEqual(20);
  await expect(dialog.getByRole('alert')).toContainText('only time the client secret is shown');
  await dialog.getByTestId('oauth2-client-done').click();
  await expect(page.getByTestId('oauth2-clients-table')).toContainText('Nightly reports');

  // A web client made in the console signs a project user in from a tiny relying-party app served here: the
  // browser runs authorization code + PKCE through the project's hosted sign-up and consent, lands on the app
  // with a code, and the app trades it for tokens.
  const app = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>Photo book</title><main><h1>Back at Photo book</h1></main></html>'));
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  const callback = `http://127.0.0.1:${(app.address() as AddressInfo).port}/callback`;
  await page.getByTestId('oauth2-client-open').first().click();
  await dialog.getByTestId('oauth2-client-name').fill('Photo book');
  await dialog.getByTestId('oauth2-client-redirects').fill(callback);
  await dialog.getByTestId('oauth2-client-scope').fill('openid email');
  await dialog.getByTestId('oauth2-client-submit').click();
  const webSecret = (await dialog.getByTestId('oauth2-secret-value').textContent())?.trim() ?? '';
  const webId = (await dialog.getByTestId('oauth2-secret-client-id').textContent())?.trim() ?? '';
  await dialog.getByTestId('oauth2-client-done').click();
  const base = `${E2E_LOCALSTACK_URL}/project-api/${slug}`;
  const verifier = randomBytes(32).toString('base64url');
  const authorization = new URLSearchParams({
    client_id: webId,
    response_type: 'code',
    redirect_uri: callback,
    scope: 'openid email',
    state: 'photo-1',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  await page.goto(`${base}/oauth2/auth?${authorization.toString()}`);
  await expect(page.getByText('Sign in to continue to Photo book.')).toBeVisible();
  await page.getByRole('link', { name: "Don't have an account? Sign up" }).click();
  const reader = newUser('photo');
  await page.locator('input[name="traits.email"]').fill(reader.email);
  await page.locator('input[name="traits.name"]').fill('Photo Reader');
  await page.locator('input[name="password"]').fill(reader.password);
  await page.locator('button[name="method"]').first().click();
  await expect(page.getByTestId('hosted-consent-client')).toContainText('Photo book wants to access your account.');
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(`${callback}?**`);
  await expect(page.getByRole('heading', { name: 'Back at Photo book' })).toBeVisible();
  const landed = new URL(page.url());
  expect(landed.searchParams.get('state')).toBe('photo-1');
  const traded = await page.request.post(`${base}/oauth2/token`, {
    form: { grant_type: 'authorization_code', code: landed.searchParams.get('code') ?? '', redirect_uri: callback, code_verifier: verifier },
    headers: { authorization: `Basic ${Buffer.from(`${encodeURIComponent(webId)}:${encodeURIComponent(webSecret)}`).toString('base64')}` },
  });
  expect(traded.status(), await traded.text()).toBe(200);
  const web = (await traded.json()) as { id_token: string; access_token: string };
  expect(JSON.parse(Buffer.from(web.id_token.split('.')[1]!, 'base64url').toString())).toMatchObject({ email: reader.email, aud: webId, iss: base });
  app.close();

  // The endpoints page names where the project answers; the secret the console showed gets a token there.
  await page.goto(`/projects/${projectId}/oauth/endpoints`);
  const tokenUrl = (await page.getByTestId('oauth2-endpoint-token-value').textContent())?.trim() ?? '';
  expect(tokenUrl).toBe(`${E2E_LOCALSTACK_URL}/project-api/${slug}/oauth2/token`);
  await expectNoA11yViolations(page, 'OAuth2 endpoints');
  const mint = () =>
    page.request.post(tokenUrl, {
      form: { grant_type: 'client_credentials', scope: 'reports:read' },
      headers: { authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}` },
    });
  const token = await mint();
  expect(token.status(), await token.text()).toBe(200);
  const issued = (await token.json()) as { token_type: string; scope: string; access_token: string };
  expect(issued.token_type.toLowerCase()).toBe('bearer');
  expect(issued.scope).toBe('reports:read');
  expect(issued.access_token).toBeTruthy();

  expect(issued).toMatchObject({ expires_in: 3600 });

  // A 5-minute access-token lifespan set in the console holds for the next token.
  await page.goto(`/projects/${projectId}/oauth/lifespans`);
  await page.getByTestId('oauth2-lifespan-access_token').fill('five');
  await page.getByTestId('oauth2-lifespans-form-submit').click();
  await expect(page.getByText('such as 1h').first()).toBeVisible();
  await page.getByTestId('oauth2-lifespan-access_token').fill('5m');
  await expectNoA11yViolations(page, 'OAuth2 token lifespans');
  await page.getByTestId('oauth2-lifespans-form-submit').click();
  await expect(page.getByText('Token lifespans saved')).toBeVisible();
  const next = await mint();
  expect(((await next.json()) as { expires_in: number }).expires_in).toBe(300);

  // PKCE enforcement is saved from the configuration page (the BFF suite sees the server refuse requests
  // without it); the project's server still names its own issuer.
  await page.goto(`/projects/${projectId}/oauth/configure`);
  await page.getByTestId('oauth2-pkce-enforced').check();
  await page.getByTestId('oauth2-configure-form-submit').click();
  await expect(page.getByText('OAuth2 configuration saved')).toBeVisible();
  const discovery = (await (await page.request.get(`${E2E_LOCALSTACK_URL}/project-api/${slug}/.well-known/openid-configuration`)).json()) as { issuer: string };
  expect(discovery.issuer).toBe(`${E2E_LOCALSTACK_URL}/project-api/${slug}`);
  // A partner system is trusted to present JWTs it signs, then no longer, after confirming.
  const partnerKey = { ...generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' }), kid: 'partner-1', alg: 'ES256', use: 'sig' };
  const issuers = page.getByTestId('oauth2-trusted-issuers');
  await expect(issuers.getByTestId('oauth2-issuers-empty')).toBeVisible();
  await issuers.getByTestId('oauth2-issuer-issuer').fill('https://partner.example.com');
  await issuers.getByTestId('oauth2-issuer-any-subject').check();
  await issuers.getByTestId('oauth2-issuer-scope').fill('reports:read');
  await issuers.getByTestId('oauth2-issuer-jwk').fill(JSON.stringify(partnerKey));
  await issuers.getByTestId('oauth2-issuer-expires').fill('2099-01-31');
  await issuers.getByTestId('oauth2-issuer-trust-submit').click();
  await expect(issuers.getByTestId('oauth2-issuers-table')).toContainText('partner-1');
  await expectNoA11yViolations(page, 'OAuth2 trusted issuers');
  await issuers.getByTestId('oauth2-issuer-delete-https://partner.example.com').click();
  await page.getByTestId('delete-oauth2-issuer-dialog').getByRole('button', { name: 'Delete trust' }).click();
  await expect(issuers.getByTestId('oauth2-issuers-empty')).toBeVisible();

  // The other settings pages load with their forms, accessible.
  for (const [path, screen] of [
    ['urls', 'OAuth2 URLs'],
    ['cookies', 'OAuth2 cookies'],
    ['strategies', 'OAuth2 token strategies'],
    ['openid', 'OAuth2 OpenID Connect'],
  ] as const) {
    await page.goto(`/projects/${projectId}/oauth/${path}`);
    await expect(page.getByTestId(`oauth2-${path}-page`).getByRole('button', { name: /^Save/ })).toBeVisible();
    await expectNoA11yViolations(page, screen);
  }

  // A signing key rotated in on the OpenID Connect page (the last one visited) is published at once; deleted after confirming, it is gone.
  const keys = page.getByTestId('oauth2-keys');
  await keys.getByTestId('oauth2-key-kid').fill('rotated-e2e');
  await keys.getByTestId('oauth2-key-create-submit').click();
  await expect(keys.getByTestId('oauth2-keys-table')).toContainText('rotated-e2e');
  const jwksUrl = `${E2E_LOCALSTACK_URL}/project-api/${slug}/.well-known/jwks.json`;
  const published = async () => ((await (await page.request.get(jwksUrl)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);
  expect(await published()).toContain('rotated-e2e');
  await keys.getByTestId('oauth2-key-delete-rotated-e2e').click();
  await page.getByTestId('delete-oauth2-key-dialog').getByRole('button', { name: 'Delete key' }).click();
  await expect(keys.getByTestId('oauth2-key-delete-rotated-e2e')).toBeHidden();
  expect(await published()).not.toContain('rotated-e2e');
  // A set of the project's own goes whole, after confirming.
  await keys.getByTestId('oauth2-keys-set').fill('partner-keys');
  await keys.getByTestId('oauth2-keys-set-show').click();
  await expect(keys.getByTestId('oauth2-keys-empty')).toContainText('No keys in partner-keys');
  await keys.getByTestId('oauth2-key-kid').fill('partner-e2e');
  await keys.getByTestId('oauth2-key-create-submit').click();
  await expect(keys.getByTestId('oauth2-keys-table')).toContainText('partner-e2e');
  await keys.getByTestId('oauth2-key-set-delete').click();
  const deleteSet = page.getByTestId('delete-oauth2-key-set-dialog');
  await expect(deleteSet).toContainText('Every key of partner-keys goes with it');
  await deleteSet.getByRole('button', { name: 'Delete key set' }).click();
  await expect(keys.getByTestId('oauth2-keys-empty')).toContainText('No keys in partner-keys');

  // Edit its name; the list follows.
  await page.goto(`/projects/${projectId}/oauth`);
  await page.getByTestId('oauth2-client-edit-Nightly reports').click();
  // The client's own lifespan beats the project's for its next token.
  await dialog.getByTestId('oauth2-client-lifespan-client_credentials_grant_access_token_lifespan').fill('2m');
  await dialog.getByTestId('oauth2-client-lifespans-form-submit').click();
  await expect(page.getByText("The client's lifespans are saved")).toBeVisible();
  const own = await mint();
  expect(((await own.json()) as { expires_in: number }).expires_in).toBe(120);
  await dialog.getByTestId('oauth2-client-delete-rotated').click();
  await page.getByTestId('delete-oauth2-rotated-dialog').getByRole('button', { name: 'Delete old secrets' }).click();
  await expect(page.getByText('Old secrets deleted')).toBeVisible();
  await dialog.getByTestId('oauth2-client-name').fill('Weekly reports');
  await dialog.getByTestId('oauth2-client-submit').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('oauth2-clients-table')).toContainText('Weekly reports');
  // Saving the client whole kept its own lifespan.
  const afterEdit = await mint();
  expect(((await afterEdit.json()) as { expires_in: number }).expires_in).toBe(120);

  // A user's consents are looked up by subject; one who consented to nothing has none.
  await page.getByTestId('oauth2-consent-subject').fill('nobody-at-all');
  await page.getByTestId('oauth2-consent-lookup-submit').click();
  await expect(page.getByTestId('oauth2-consent-empty')).toContainText('No consents for this subject');

  // Delete it, after confirming.
  await page.getByTestId('oauth2-client-delete-Weekly reports').click();
  const confirm = page.getByTestId('delete-oauth2-client-dialog');
  await expect(confirm).toContainText('cannot be undone');
  await confirm.getByRole('button', { name: 'Delete client' }).click();
  await expect(page.getByTestId('oauth2-clients-table')).not.toContainText('Weekly reports');
  await expect(page.getByTestId('oauth2-clients-table')).toContainText('Photo book');
});

test("the console's consent page lets a command-line tool act on the account when allowed, and sends it away when denied", async ({ page }) => {
  const user = newUser('consent');
  await register(page, user);
  await signOut(page);
  // The tool listens on a loopback port of its own choosing (a loopback redirect URI matches on any port).
  const tool = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><html lang="en"><title>Tool</title><main><h1>Back in the tool</h1></main></html>'));
  await new Promise<void>((resolve) => tool.listen(0, '127.0.0.1', resolve));
  const callback = `http://127.0.0.1:${(tool.address() as AddressInfo).port}/callback`;
  const authorize = (state: string) => {
    const verifier = randomBytes(32).toString('base64url');
    const params = new URLSearchParams({
      client_id: 'console-cli',
      response_type: 'code',
      redirect_uri: callback,
      scope: 'openid offline_access email',
      state,
      prompt: 'consent',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    return `/.ory/oauth2/auth?${params.toString()}`;
  };

  // Signed out, the user signs in to the console first and comes back to the consent page, which names the tool
  // and its scopes in words.
  await page.goto(authorize('allow-1'));
  await expect(page).toHaveURL(/\/login\?return_to=/);
  await fillLogin(page, user.email, user.password);
  await expect(page).toHaveURL(/\/oauth2\/consent\?consent_challenge=/);
  await expect(page.getByTestId('consent-client')).toContainText('Console CLI wants to use your console account');
  await expect(page.getByTestId('consent-scope-email')).toBeChecked();
  await expect(page.getByText('See your email address')).toBeVisible();
  await expectNoA11yViolations(page, 'consent page');
  await page.getByTestId('consent-scope-email').uncheck();
  await page.getByTestId('consent-remember').check();
  await page.getByTestId('consent-allow').click();
  await page.waitForURL(`${callback}?**`);
  const allowed = new URL(page.url());
  expect(allowed.searchParams.get('code')).toBeTruthy();
  expect(allowed.searchParams.get('state')).toBe('allow-1');

  // Signed in now, the user goes straight to the consent page; denied, the tool gets access_denied and no code.
  await page.goto(authorize('deny-1'));
  await page.getByTestId('consent-deny').click();
  await page.waitForURL(`${callback}?**`);
  const denied = new URL(page.url());
  expect(denied.searchParams.get('error')).toBe('access_denied');
  expect(denied.searchParams.get('state')).toBe('deny-1');
  expect(denied.searchParams.get('code')).toBeNull();
  tool.close();
});

import { expect, test } from './fixtures';
import { E2E_LOCALSTACK_URL } from './ports';
import { createProject, expectNoA11yViolations, newUser, registerByApi } from './support';

test('the password policy and the allowed return URLs set in the console hold in the project’s own flows; the limits page lists the plan', async ({ page }) => {
  await registerByApi(page, newUser('authcfg'));
  const projectId = await createProject(page, 'Sign-in rules');
  const slug = await page.evaluate(async (id) => {
    const res = await fetch(`/api/trpc/projects.get?input=${encodeURIComponent(JSON.stringify({ projectId: id }))}`);
    return ((await res.json()) as { result: { data: { slug: string } } }).result.data.slug;
  }, projectId);
  const api = `${E2E_LOCALSTACK_URL}/project-api/${slug}`;

  // A 12-character minimum: the next sign-up with 11 characters is refused with Kratos' message.
  await page.goto(`/projects/${projectId}/authentication`);
  const length = page.getByTestId('authentication-min-password-length');
  // The page loads its chunk and the project's settings first: wait for the field, not a fixed time.
  await expect(length).toHaveValue('8', { timeout: 30_000 });
  await length.fill('12');
  await expectNoA11yViolations(page, 'sign-in methods');
  await page.getByTestId('authentication-form-submit').click();
  await expect(page.getByText('Sign-in methods saved')).toBeVisible();
  const flow = (await (await page.request.get(`${api}/self-service/registration/api`)).json()) as { id: string };
  const refused = await page.request.post(`${api}/self-service/registration?flow=${flow.id}`, {
    data: { method: 'password', password: 'Zq9-xw7-Lp4', traits: { email: 'eleven@example.com' } },
  });
  expect(refused.status()).toBe(400);
  expect(await refused.text()).toContain('The password must be at least 12 characters long, but got 11.');
  const accepted = await page.request.post(`${api}/self-service/registration?flow=${flow.id}`, {
    data: { method: 'password', password: 'Zq9-xw7-Lp4-k', traits: { email: 'twelve@example.com' } },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);

  // An allowed return URL must pass the origin rule; a flow then refuses a return_to outside the list.
  await page.goto(`/projects/${projectId}/browser-redirects`);
  const allowed = page.getByTestId('browser-redirects-allowed-return-urls');
  await allowed.fill('https://localhost/');
  await page.getByTestId('browser-redirects-form-submit').click();
  await expect(page.getByText('https://localhost/: A domain name must contain a dot')).toBeVisible();
  await allowed.fill('https://app.example.com/\nhttps://*.example.org');
  await page.getByTestId('browser-redirects-form-submit').click();
  await expect(page.getByText('Browser redirects saved')).toBeVisible();
  const inside = await page.request.get(`${api}/self-service/login/browser?return_to=${encodeURIComponent('https://eu.example.org/home')}`, { headers: { accept: 'application/json' } });
  expect(inside.status()).toBe(200);
  const outside = await page.request.get(`${api}/self-service/login/browser?return_to=${encodeURIComponent('https://evil.example.com/')}`, { headers: { accept: 'application/json' } });
  expect(outside.status()).toBe(400);
  expect(((await outside.json()) as { error: { id: string } }).error.id).toBe('self_service_flow_return_to_forbidden');

  await page.goto(`/projects/${projectId}/limits`);
  await expect(page.getByTestId('limits-rateLimitTiers')).toContainText('Session');
  await expect(page.getByTestId('limits-domainsStreamsAndSeats')).toContainText('Collaborator seats');
  // What is used is counted: the end user who signed up is today's one active user; no check was made this month.
  await expect(page.getByTestId('limits-projectsAndUsers').getByRole('row', { name: /Daily active users/ })).toContainText('1 today');
  await expect(page.getByTestId('limits-platform').getByRole('row', { name: /Permission checks/ })).toContainText('0 this month');
  await expectNoA11yViolations(page, 'limits');
});

import { expect, test, type Page } from './fixtures';
import { E2E_CONSENT_LOCALSTACK_URL, E2E_CONSENT_URL } from './ports';
import { createProject, createWorkspace, expectNoA11yViolations, newUser, register } from './support';

// The console that asks for consent first, as every console off a local stack does.
test.use({ baseURL: E2E_CONSENT_URL });

const FIVE_EVENTS = ['project created', 'project switched', 'workspace created', 'pricing plan changed', 'member invite created'];

async function storedEvents(page: Page): Promise<{ event: string; distinct_id: string | null; timestamp: string; properties: Record<string, unknown> }[]> {
  const res = await page.request.get(`${E2E_CONSENT_LOCALSTACK_URL}/local/analytics/events?limit=1000`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as never;
}

test('analytics send nothing before consent, and the five events after it', async ({ page }) => {
  const requests: string[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname.startsWith('/ingest/batch')) requests.push(req.url());
  });
  await register(page, newUser('consent'));
  const banner = page.getByTestId('consent-banner');
  await expect(banner).toBeVisible();
  await expectNoA11yViolations(page, 'consent banner');

  // Before any answer: a workspace and a project are created, and nothing leaves the browser (every page
  // left sends what waits, so the navigations between them would have carried anything captured).
  const earlyWorkspace = await createWorkspace(page, 'Before consent');
  const earlyProject = await createProject(page, 'Before consent');
  await page.goto('/projects');
  expect(requests).toEqual([]);

  // What this journey sends from here on (the stack may hold events of an earlier run).
  const consentedAt = Date.now();
  await banner.getByTestId('consent-accept').click();
  await expect(banner).toBeHidden();

  // workspace created, project created
  const workspaceId = await createWorkspace(page, 'After consent');
  const first = await createProject(page, 'First after consent');
  await createProject(page, 'Second after consent');
  // project switched
  await page.getByTestId('project-switcher').click();
  await page.getByTestId('project-switcher-option').filter({ hasText: 'First after consent' }).click();
  await expect(page).toHaveURL(new RegExp(`/projects/${first}/get-started$`));
  // pricing plan changed
  await page.goto(`/workspaces/${workspaceId}/settings/subscription`);
  await page.getByTestId('plan-card-production').click();
  await page.getByTestId('plan-change-open').click();
  await page.getByTestId('plan-change-confirm').click();
  await expect(page.getByTestId('plan-card-production').getByTestId('plan-current')).toBeVisible();
  // member invite created
  await page.goto(`/workspaces/${workspaceId}/settings/members`);
  await page.getByTestId('invite-open').click();
  await page.getByTestId('invite-dialog').getByTestId('invite-email').fill(`colleague-${Date.now()}@example.com`);
  await page.getByTestId('invite-dialog').getByTestId('invite-submit').click();
  await expect(page.getByText(/Invite sent to/)).toBeVisible();

  // They arrive in batches through /ingest on our own origin, each once.
  await expect
    .poll(
      async () =>
        (await storedEvents(page))
          .filter((e) => new Date(e.timestamp).getTime() >= consentedAt)
          .map((e) => e.event)
          .filter((name) => FIVE_EVENTS.includes(name))
          .sort(),
      { timeout: 20_000 },
    )
    .toEqual([...FIVE_EVENTS, 'project created'].sort());
  const events = await storedEvents(page);
  expect(events.some((e) => e.event === '$pageview')).toBe(true);
  // Nothing of what happened before consent was ever stored.
  const before = JSON.stringify(events);
  expect(before).not.toContain(earlyWorkspace);
  expect(before).not.toContain(earlyProject);
  expect(requests.every((url) => url.startsWith(E2E_CONSENT_URL))).toBe(true);
  expect(events.find((e) => e.event === 'pricing plan changed')?.properties).toMatchObject({ to: 'Production@0' });

  // The setting turns them off again.
  await page.goto('/settings');
  const setting = page.getByTestId('analytics-consent-switch');
  await expect(setting).toHaveAttribute('aria-checked', 'true');
  await setting.click();
  await expect(setting).toHaveAttribute('aria-checked', 'false');
});

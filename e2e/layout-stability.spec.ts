import { expect, test, type Locator, type Page } from './fixtures';
import { createProject, newUser, registerByApi } from './support';

/**
 * A page's whole load may shift 0.05 at most (Web Vitals' "good", measured by `npm run bench`); the
 * arrival of its data, where a placeholder gives way to content, may use next to none of that.
 */
const CLS_LIMIT = 0.01;

/** Keeps every layout shift of the document, input or not: the layout itself must not move. */
const RECORD_SHIFTS = `(() => {
  window.__shifts = [];
  window.__observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__shifts.push(entry.value);
  });
  window.__observer.observe({ type: 'layout-shift', buffered: true });
})();`;

type Shifts = { __shifts: number[]; __observer: PerformanceObserver };

/**
 * Opens a page with its data held back until its loading placeholder is on screen, then lets the data
 * through and answers the layout shift from the placeholder to the loaded page: the worst case of a
 * slow answer, made certain instead of left to timing.
 */
async function shiftWhileLoading(page: Page, opts: { hold: RegExp; open: () => Promise<void>; placeholder: Locator; loaded: Locator }): Promise<number> {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const held = (url: URL) => opts.hold.test(decodeURIComponent(url.pathname + url.search));
  await page.route(held, async (route) => {
    await gate;
    await route.continue();
  });
  await opts.open();
  await expect(opts.placeholder).toBeVisible();
  const mark = await page.evaluate(() => (window as unknown as Shifts).__shifts.length);
  release();
  await expect(opts.loaded).toBeVisible();
  // A shift is measured with the frame that paints it: let two frames go by, then take what the
  // observer has not delivered yet.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const cls = await page.evaluate((from) => {
    const w = window as unknown as Shifts;
    for (const entry of w.__observer.takeRecords()) w.__shifts.push((entry as PerformanceEntry & { value: number }).value);
    return w.__shifts.slice(from).reduce((sum, v) => sum + v, 0);
  }, mark);
  await page.unroute(held);
  return cls;
}

/** An in-app navigation, as a link would do it, without an input event (which would excuse the shifts). */
async function navigate(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => window.history.pushState(null, '', to), path);
}

test.describe('layout stays put while data arrives', () => {
  let project = '';

  test.beforeEach(async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.addInitScript(RECORD_SHIFTS);
    await registerByApi(page, newUser('steady'));
    project = await createProject(page, 'Steady');
  });

  test('email and SMS configuration, identity and billing pages keep their layout when their data arrives', async ({ page }) => {
    const identity = await page.evaluate(async (projectId) => {
      const headers = { 'content-type': 'application/json', 'x-console-request': '1' };
      const schemas = await (await fetch(`/api/trpc/identities.schemas?input=${encodeURIComponent(JSON.stringify({ projectId }))}`, { headers })).json();
      const schemaId = schemas.result.data[0].id as string;
      const body = JSON.stringify({ projectId, schemaId, traits: { email: `steady-${Date.now()}@example.com`, name: 'Steady' } });
      const created = await (await fetch('/api/trpc/identities.create', { method: 'POST', headers, body })).json();
      return created.result.data.id as string;
    }, project);
    const results: Record<string, number> = {};
    const cases: { name: string; path: string; hold: RegExp; testId: string; loaded: (p: Locator) => Locator }[] = [
      { name: 'get started', path: 'get-started', hold: /projects\.endpoint/, testId: 'get-started-page', loaded: (p) => p.getByTestId('project-host') },
      { name: 'email configuration', path: 'email-configuration', hold: /messaging\.emailConfig/, testId: 'email-configuration-page', loaded: (p) => p.getByTestId('email-config-form') },
      { name: 'SMS configuration', path: 'sms-configuration', hold: /messaging\.smsConfig/, testId: 'sms-configuration-page', loaded: (p) => p.getByTestId('sms-config-form') },
      { name: 'identities', path: 'identities', hold: /identities\.list/, testId: 'identities-page', loaded: (p) => p.getByRole('table') },
      { name: 'identity', path: `identities/${identity}`, hold: /identities\.(get|schemas)/, testId: 'identity-page', loaded: (p) => p.getByTestId('identity-state') },
      { name: 'identity schema', path: 'identity-schema', hold: /schemas\.list/, testId: 'identity-schema-page', loaded: (p) => p.getByTestId('schemas-active') },
      { name: 'project billing', path: 'settings/billing', hold: /billing\.getSubscription/, testId: 'project-billing-page', loaded: (p) => p.getByTestId('billing-no-subscription') },
      { name: 'collaborators', path: 'settings/collaborators', hold: /members\.list/, testId: 'members-card', loaded: (p) => p.getByTestId('members-table') },
    ];
    for (const c of cases) {
      // Set out from a page whose data is not the case's own, so the case's query is asked for anew.
      await page.goto(c.path === 'get-started' ? '/projects' : `/projects/${project}/get-started`);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      const root = page.getByTestId(c.testId);
      results[c.name] = await shiftWhileLoading(page, {
        hold: c.hold,
        open: () => navigate(page, `/projects/${project}/${c.path}`),
        placeholder: page.getByTestId('skeleton').first(),
        loaded: c.loaded(root),
      });
      console.log(`${c.name}: CLS ${results[c.name]!.toFixed(3)}`);
    }
    test.info().annotations.push({ type: 'cls', description: JSON.stringify(results) });
    console.log(`CLS while data arrives: ${JSON.stringify(results)}`);
    for (const [name, cls] of Object.entries(results)) expect(cls, name).toBeLessThanOrEqual(CLS_LIMIT);
  });

  test('pages opened by URL keep their layout through the whole load', async ({ page }) => {
    // Web Vitals' "good", as npm run bench:pages measures it: every shift not caused by input, from the
    // document's start until the page has its data and the network is quiet.
    const results: Record<string, number> = {};
    for (const path of ['get-started', 'settings/billing', 'settings/advanced']) {
      await page.goto(`/projects/${project}/${path}`);
      await expect(page.locator('main h1')).toBeVisible();
      await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      results[path] = await page.evaluate(() => {
        const w = window as unknown as Shifts;
        for (const entry of w.__observer.takeRecords()) w.__shifts.push((entry as PerformanceEntry & { value: number }).value);
        return w.__shifts.reduce((sum, v) => sum + v, 0);
      });
    }
    console.log(`CLS of a whole load by URL: ${JSON.stringify(results)}`);
    for (const [name, cls] of Object.entries(results)) expect(cls, name).toBeLessThanOrEqual(0.05);
  });

  test('sign-in and registration keep their layout when the flow arrives', async ({ page, browser }) => {
    const context = await browser.newContext({ baseURL: new URL(page.url()).origin, viewport: { width: 1440, height: 900 } });
    await context.addInitScript(RECORD_SHIFTS);
    const anonymous = await context.newPage();
    const results: Record<string, number> = {};
    for (const flow of ['login', 'registration', 'recovery'] as const) {
      results[flow] = await shiftWhileLoading(anonymous, {
        hold: new RegExp(`/self-service/${flow}/browser`),
        open: async () => {
          await anonymous.goto(`/${flow}`, { waitUntil: 'commit' });
        },
        placeholder: anonymous.getByTestId('skeleton').first(),
        loaded: anonymous.getByTestId('flow-form'),
      });
    }
    await context.close();
    console.log(`CLS while the flow arrives: ${JSON.stringify(results)}`);
    for (const [name, cls] of Object.entries(results)) expect(cls, name).toBeLessThanOrEqual(CLS_LIMIT);
  });
});

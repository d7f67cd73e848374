import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import type { Result } from 'axe-core';
import { CODE_AFTER_PAINT_ELEMENT_ID, type CodeAfterPaint } from '../shared/code-after-paint';
import { E2E_LOCALSTACK_URL } from './ports';

export const PASSWORD = 'Violet-Harbor-Lantern-2041';

export interface TestUser {
  email: string;
  name: string;
  password: string;
}

/** A user nobody has registered yet. */
export function newUser(label: string): TestUser {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  return { email: `${label}-${id}@example.com`, name: `Test ${label}`, password: PASSWORD };
}

export async function register(page: Page, user: TestUser): Promise<void> {
  await page.goto('/registration');
  const form = page.getByTestId('flow-form');
  await form.getByTestId('flow-input-traits.email').fill(user.email);
  await form.getByTestId('flow-input-traits.name').fill(user.name);
  await form.getByTestId('flow-input-password').fill(user.password);
  await form.getByRole('button', { name: /sign up|register|create/i }).click();
  await expect(page).not.toHaveURL(/\/registration/);
}

/**
 * Signs a new user up without the registration page, for journeys about something else: the console's own
 * registration flow as JSON through its /.ory proxy (the flow, its CSRF cookie, the submission with the
 * console's origin), as the page's form does. The session cookie lands in the page's browser context; the
 * page stays where it is. The registration page itself is walked by the journeys about signing up.
 */
export async function registerByApi(page: Page, user: TestUser): Promise<void> {
  const created = await page.request.get('/.ory/self-service/registration/browser', { headers: { accept: 'application/json' } });
  expect(created.status(), `creating a registration flow answered ${created.status()}: ${await created.text()}`).toBe(200);
  const flow = (await created.json()) as { ui: { action: string; nodes: { attributes: { name?: string; value?: unknown } }[] } };
  const csrf = flow.ui.nodes.find((n) => n.attributes.name === 'csrf_token')?.attributes.value;
  const submitted = await page.request.post(flow.ui.action, {
    headers: { accept: 'application/json', origin: new URL(created.url()).origin },
    data: { method: 'password', csrf_token: csrf, password: user.password, traits: { email: user.email, name: user.name } },
  });
  expect(submitted.status(), `signing ${user.email} up answered ${submitted.status()}: ${await submitted.text()}`).toBe(200);
}

export async function fillLogin(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByTestId('flow-form');
  await form.getByTestId('flow-input-identifier').fill(email);
  await form.getByTestId('flow-input-password').fill(password);
  await form.getByRole('button', { name: /sign in|log in|continue/i }).click();
}

export async function signOut(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByTestId('sign-out').click();
  await expect(page).toHaveURL(/\/login/);
  await expect(page.getByTestId('flow-form')).toBeVisible();
}

/** Creates a project through the create page; answers its id (from the get-started URL). */
export async function createProject(page: Page, name: string, environment = 'dev'): Promise<string> {
  await page.goto('/projects/create');
  await page.getByTestId('project-name-input').fill(name);
  await page.getByTestId('project-environment-select').selectOption(environment);
  await page.getByTestId('create-project-submit').click();
  await expect(page).toHaveURL(/\/projects\/[0-9a-f-]{36}\/get-started$/);
  await expect(page.getByTestId('project-name')).toHaveText(name);
  return projectIdFromUrl(page.url());
}

export function projectIdFromUrl(url: string): string {
  const match = /\/projects\/([0-9a-f-]{36})\//.exec(url);
  if (!match?.[1]) throw new Error(`No project id in ${url}`);
  return match[1];
}

/** WCAG 2.0, 2.1 and 2.2 at levels A and AA, plus axe's best practices (landmarks, heading order). */
export const A11Y_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa', 'best-practice'];

/** One block per violation: rule, impact, help link, and every offending element with axe's advice. */
export function formatViolations(violations: readonly Result[]): string {
  return violations
    .map((v) => {
      const nodes = v.nodes.map((n) => {
        const summary = (n.failureSummary ?? '').replace(/\n/g, '\n        ');
        return `    - ${n.target.join(' ')}\n      ${n.html.slice(0, 240)}\n        ${summary}`;
      });
      return `[${v.impact ?? 'unknown'}] ${v.id}: ${v.help}\n  ${v.helpUrl}\n${nodes.join('\n')}`;
    })
    .join('\n\n');
}

/** A path with its ids (UUIDs, long hex or numeric segments) replaced by `:id`: the route it belongs to. */
export function routePattern(pathname: string): string {
  return pathname.replace(/\/(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{16,}|\d+)(?=\/|$)/gi, '/:id');
}

/** The run's list of accessibility checks, scanned or skipped as repeats, beside its data directory; the global teardown prints its tally. */
export const a11yLogPath = (dataDir: string): string => `${dataDir}-a11y.tsv`;

type A11yRun = 'full' | 'colors' | 'layout';

/**
 * What this worker has checked already: a screen (a route pattern, or a label naming a page and the state
 * shown, such as an open dialog) in a theme at a viewport width. The same screen in the same theme and width
 * renders the same document, so it is checked once per run; every distinct one still is. Workers share
 * what they checked through the run's log (`a11yLogPath`), so a second worker does not repeat a check; two
 * that meet a screen at the same moment both check it (more scans, never fewer). A check that finds
 * violations fails its test, and with it the run.
 */
const checked = new Map<string, A11yRun>();

/** The checks any worker of this run has logged as scanned, by `where` (screen, theme and width). */
function scannedInRun(dir: string): Map<string, A11yRun> {
  const scanned = new Map<string, A11yRun>();
  if (!existsSync(a11yLogPath(dir))) return scanned;
  for (const line of readFileSync(a11yLogPath(dir), 'utf8').split('\n')) {
    const [decision, run, where] = line.split('\t');
    if (decision !== 'scan' || (run !== 'full' && run !== 'colors' && run !== 'layout') || !where) continue;
    if (scanned.get(where) !== 'full') scanned.set(where, run);
  }
  return scanned;
}

async function a11yKey(page: Page, screen: string, theme?: string): Promise<{ key: string; where: string }> {
  theme ??=
    (await page.locator('html').getAttribute('data-theme')) ?? (await page.evaluate(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')));
  const width = page.viewportSize()?.width ?? 0;
  return { key: `${screen}\u0000${theme}\u0000${width}`, where: `${screen} (${theme}, ${width} px)` };
}

/** Whether this run has already checked a screen in a theme with at least this run, without switching to it. */
async function checkedBefore(page: Page, screen: string, theme: string, run: A11yRun): Promise<boolean> {
  const { key, where } = await a11yKey(page, screen, theme);
  const dir = process.env.E2E_DATA_DIR;
  const before = checked.get(key) ?? (dir ? scannedInRun(dir).get(where) : undefined);
  return before === 'full' || before === run;
}

/** The frame around every page: the top bar and the sidebar (absent on minimal pages and while the drawer is shut). */
const FRAME = ['header.topbar', 'aside.sidebar'];

/**
 * The frame as a screen of its own: the same top bar and sidebar (the same entries, menus shut) are the same
 * components on every page of a scope, whichever entry is current and whatever the breadcrumbs name. The first
 * check of a run in a theme and width covers it; later checks look at the rest of the document only. An open
 * menu or drawer adds entries, so it is a new frame and checked in full.
 */
async function frameSeen(page: Page, run: A11yRun): Promise<boolean> {
  const signature = await page.evaluate(
    (selectors) =>
      selectors
        .map((selector) => {
          const el = document.querySelector(selector);
          return el ? [...el.querySelectorAll('[data-testid]')].map((e) => e.getAttribute('data-testid')).join(',') : '';
        })
        .join('|'),
    FRAME,
  );
  if (signature === '|') return false;
  const { first } = await firstTime(page, `frame ${createHash('sha256').update(signature).digest('hex').slice(0, 12)}`, run);
  return !first;
}

/** Skips a screen checked already with at least this run; otherwise records it. Appends each decision to the run's log. */
async function firstTime(page: Page, screen: string, run: A11yRun): Promise<{ first: boolean; where: string }> {
  const { key, where } = await a11yKey(page, screen);
  const dir = process.env.E2E_DATA_DIR;
  const before = checked.get(key) ?? (dir ? scannedInRun(dir).get(where) : undefined);
  const first = !(before === 'full' || before === run);
  if (first) checked.set(key, run);
  if (dir) appendFileSync(a11yLogPath(dir), `${first ? 'scan' : 'skip'}\t${run}\t${where}\n`);
  return { first, where };
}

/**
 * Runs axe on the page and fails with a readable list of what it found, once per screen, theme and width
 * in a run (see `checked`). `screen` defaults to the route pattern of the page's URL; a caller checking a
 * state of a page (a dialog open, an error shown) names it. Toasts come and go on their own timers, and one fading out is half transparent:
 * they are left out unless `toasts` is set, in which case the check waits until every toast is fully shown.
 */
export async function expectNoA11yViolations(
  page: Page,
  screen: string = routePattern(new URL(page.url()).pathname),
  options: { toasts?: boolean } = {},
): Promise<void> {
  const { first, where } = await firstTime(page, options.toasts ? `${screen} [toasts]` : screen, 'full');
  if (!first) return;
  // A page's heading arrives with its lazily loaded code; checking before it would report a page without
  // one. When none comes, axe still runs and says so.
  await page
    .getByRole('heading', { level: 1 })
    .first()
    .waitFor({ state: 'visible', timeout: 10_000 })
    .catch(() => undefined);
  const exclude = (await frameSeen(page, 'full')) ? [...FRAME] : [];
  if (options.toasts) {
    await page.waitForFunction(() =>
      [...document.querySelectorAll('.toast')].every((toast) => getComputedStyle(toast).opacity === '1' && toast.getAnimations().every((a) => a.playState === 'finished')),
    );
  } else {
    exclude.push('.toast');
  }
  // What the page does once it has laid out new content (a table that now scrolls sideways becomes a tab stop,
  // measured by a ResizeObserver and rendered by React) is done two frames on.
  await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve)))));
  const violations = await runAxe(page, { type: 'tag', values: A11Y_TAGS }, exclude);
  expect(violations.map((v) => v.id), `Accessibility violations on ${where}:\n\n${formatViolations(violations)}\n`).toEqual([]);
}

/** axe-core's own build, put into a page's documents once each (in-app navigation keeps the document). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core in the page, document by document: the top document with `exclude`, then each frame it holds
 * (the live hosted pages on the account-experience pages) as the page of its own that it is, so that rules
 * about one document (a unique main landmark, one h1) judge each document alone. axe is injected into a
 * document the first time a check meets it (in-app navigation keeps the document): a scan of a page already
 * holding axe costs its rules alone, not the 600 KB script and a scratch page each time.
 */
async function runAxe(page: Page, runOnly: { type: 'tag' | 'rule'; values: string[] }, exclude: string[]): Promise<Result[]> {
  // A page the server painted is inert until the console's code takes its place: nothing in it can be focused
  // yet, by design, and axe would judge its scrollable tables unreachable. The page is checked once live.
  await waitUntilLive(page);
  const violations: Result[] = [];
  for (const frame of page.frames()) {
    const top = frame === page.mainFrame();
    if (!top && (frame.isDetached() || frame.url() === 'about:blank')) continue;
    try {
      const ready = await frame.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
      if (!ready) await frame.evaluate(AXE_SOURCE);
      const found = await frame.evaluate(
        async ({ runOnly, exclude }) => {
          const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: Result[] }> } }).axe;
          const context = exclude.length > 0 ? { exclude: exclude.map((selector) => [selector]) } : document;
          return (await axe.run(context, { runOnly, resultTypes: ['violations'], iframes: false })).violations;
        },
        { runOnly, exclude: top ? exclude : [] },
      );
      // A frame's findings name it, so that the report says where they are.
      violations.push(...(top ? found : found.map((v) => ({ ...v, nodes: v.nodes.map((n) => ({ ...n, target: [`frame ${frame.url()}`, ...n.target] as typeof n.target })) }))));
    } catch (error) {
      // A frame that navigated or went away meanwhile has nothing left to check; the page itself must answer.
      if (top) throw error;
    }
  }
  return violations;
}

/** The signed-in user's cookies as one Cookie header, for calls made straight to the local stack. */
export async function cookieHeader(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

interface NormalizedProjectAnswer {
  id: string;
  environment: string;
  current_revision: { id: string; name: string } & Record<string, unknown>;
}

/** The project as the local stack holds it (GET /normalized/projects/{id}), read with the user's session. */
export async function readProjectUpstream(page: Page, projectId: string): Promise<NormalizedProjectAnswer> {
  const res = await page.request.get(`${E2E_LOCALSTACK_URL}/normalized/projects/${projectId}`, { headers: { cookie: await cookieHeader(page) } });
  expect(res.ok(), `GET project answered ${res.status()}: ${await res.text()}`).toBe(true);
  return (await res.json()) as NormalizedProjectAnswer;
}

/**
 * Changes the project "elsewhere": a JSON patch on its current revision, sent straight to the local
 * stack with the user's session (PATCH /normalized/projects/{id}/revision/{revision}).
 */
export async function patchProjectUpstream(page: Page, projectId: string, patch: readonly Record<string, unknown>[]): Promise<NormalizedProjectAnswer> {
  const current = await readProjectUpstream(page, projectId);
  const res = await page.request.patch(`${E2E_LOCALSTACK_URL}/normalized/projects/${projectId}/revision/${current.current_revision.id}`, {
    headers: { cookie: await cookieHeader(page), 'content-type': 'application/json' },
    data: JSON.stringify(patch),
  });
  expect(res.ok(), `PATCH revision answered ${res.status()}: ${await res.text()}`).toBe(true);
  return (await res.json()) as NormalizedProjectAnswer;
}

/** The local stack's developer tool: the plan in force without a purchase (loopback only). */
export async function setProjectPlan(page: Page, projectId: string, plan: string): Promise<void> {
  const res = await page.request.put(`${E2E_LOCALSTACK_URL}/local/plan`, { data: { project_id: projectId, plan } });
  expect(res.status(), await res.text()).toBe(204);
}

/** Creates a workspace through its create page; answers its id (from the workspace URL). */
export async function createWorkspace(page: Page, name: string): Promise<string> {
  await page.goto('/workspaces/create');
  await page.getByTestId('workspace-name-input').fill(name);
  await page.getByTestId('create-workspace-submit').click();
  await expect(page).toHaveURL(/\/workspaces\/[0-9a-f-]{36}$/);
  const match = /\/workspaces\/([0-9a-f-]{36})$/.exec(page.url());
  if (!match?.[1]) throw new Error(`No workspace id in ${page.url()}`);
  return match[1];
}

/** Nothing scrolls sideways: the document is no wider than the viewport. */
export async function expectNoHorizontalScroll(page: Page, screen: string = new URL(page.url()).pathname): Promise<void> {
  const { scrollWidth, innerWidth, widest } = await page.evaluate(() => {
    // The innermost elements that reach past the viewport, to say what to fix.
    const past = [...document.querySelectorAll<HTMLElement>('body *')].filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1);
    const innermost = past.filter((el) => !past.some((other) => other !== el && el.contains(other)));
    const describe = (el: HTMLElement) => `${el.tagName.toLowerCase()}${el.dataset['testid'] ? `[data-testid=${el.dataset['testid']}]` : ''}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''} (${Math.round(el.getBoundingClientRect().right)}px)`;
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth, widest: innermost.slice(0, 5).map(describe) };
  });
  expect(scrollWidth, `${screen} is ${scrollWidth}px wide in a ${innerWidth}px viewport: ${widest.join(', ')}`).toBeLessThanOrEqual(innerWidth);
}

/**
 * Runs axe in the light and the dark theme. The console follows the system theme by default, so the
 * page is shown as under a dark system setting, checked, and switched back.
 */
export async function expectNoA11yViolationsInBothThemes(
  page: Page,
  screen: string = routePattern(new URL(page.url()).pathname),
  options: { darkColorsOnly?: boolean } = {},
): Promise<void> {
  const root = page.locator('html');
  await expect(root).toHaveAttribute('data-theme', 'light');
  await expectNoA11yViolations(page, screen);
  // The dark theme is shown only when it still has something to check.
  if (await checkedBefore(page, screen, 'dark', options.darkColorsOnly ? 'colors' : 'full')) return;
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(root).toHaveAttribute('data-theme', 'dark');
  if (options.darkColorsOnly) await expectNoColorViolations(page, screen);
  else await expectNoA11yViolations(page, screen);
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(root).toHaveAttribute('data-theme', 'light');
}

/** The theme changes colours only: its checks are the colour rules (contrast, links told apart from text). */
export const COLOR_RULES = ['color-contrast', 'link-in-text-block'];

/** axe's colour rules only, once per screen, theme and width (a full check of the same covers them). */
export async function expectNoColorViolations(page: Page, screen: string): Promise<void> {
  const { first, where } = await firstTime(page, screen, 'colors');
  if (!first) return;
  const exclude = (await frameSeen(page, 'colors')) ? [...FRAME, '.toast'] : ['.toast'];
  const violations = await runAxe(page, { type: 'rule', values: COLOR_RULES }, exclude);
  expect(violations.map((v) => v.id), `Colour violations on ${where}:\n\n${formatViolations(violations)}\n`).toEqual([]);
}

/**
 * The rules whose outcome depends on the viewport's width: a region that scrolls only on a narrow screen
 * must be reachable by keyboard, and touch targets keep their size. The document itself (names, roles,
 * landmarks, colours) is the same at every width and gets the full check at 1440 px.
 */
export const LAYOUT_RULES = ['scrollable-region-focusable', 'target-size', 'meta-viewport'];

/** axe's layout rules only, once per screen, theme and width (a full check of the same covers them). */
export async function expectNoLayoutViolations(page: Page, screen: string): Promise<void> {
  const { first, where } = await firstTime(page, screen, 'layout');
  if (!first) return;
  await page
    .getByRole('heading', { level: 1 })
    .first()
    .waitFor({ state: 'visible', timeout: 10_000 })
    .catch(() => undefined);
  const violations = await runAxe(page, { type: 'rule', values: LAYOUT_RULES }, ['.toast']);
  expect(violations.map((v) => v.id), `Layout violations on ${where}:\n\n${formatViolations(violations)}\n`).toEqual([]);
}

/** The newest verification code mailed to `email`, read from the local mailbox. */
export async function verificationCode(page: Page, email: string): Promise<string> {
  const res = await page.request.get(`${E2E_LOCALSTACK_URL}/local/mailbox/messages?to=${encodeURIComponent(email)}`);
  expect(res.ok(), `mailbox answered ${res.status()}`).toBe(true);
  const messages = (await res.json()) as { body: string; template_type: string }[];
  const code = /\b(\d{6})\b/.exec(messages.filter((m) => m.template_type === 'verification_code_valid').at(-1)?.body ?? '')?.[1];
  expect(code, 'a verification code was mailed').toBeDefined();
  return code ?? '';
}

/** Verifies the signed-in user's address with the code mailed at sign-up, through the banner's Verify now. */
export async function verifyEmail(page: Page, email: string): Promise<void> {
  await page.goto('/projects');
  await page.getByTestId('verification-banner').getByTestId('verify-now').click();
  await expect(page).toHaveURL(/\/verification\?flow=/);
  await page.getByTestId('flow-input-code').fill(await verificationCode(page, email));
  await page.getByTestId('flow-form').getByRole('button', { name: /submit|continue|verify/i }).first().click();
  await expect(page.getByTestId('verification-continue')).toBeVisible();
}

/** The link of the newest invite mailed to `email`, waited for until it is there. */
export async function inviteLink(page: Page, email: string): Promise<URL> {
  let link = '';
  await expect
    .poll(async () => {
      const res = await page.request.get(`${E2E_LOCALSTACK_URL}/local/mailbox/messages?to=${encodeURIComponent(email)}`);
      const [mail] = (await res.json()) as { body: string }[];
      link = /https?:\/\/\S+\/invites\?\S+/.exec(mail?.body ?? '')?.[0] ?? '';
      return link;
    })
    .not.toBe('');
  return new URL(link);
}

/**
 * Waits until the console's code has taken the place of a page the server painted (inert until then): a
 * measure taken, or a file set, on the painted copy would go with it (e2e/fixtures.ts waits so after every goto).
 */
export async function waitUntilLive(page: Page): Promise<void> {
  // A locator, not a function in the page: it outlives a navigation (a redirect) while it waits.
  await page.locator('#root[inert]').waitFor({ state: 'detached' });
}

/** The element of the console's HTML that carries a signed-in page's first answers (shared/first-queries.ts). */
const FIRST_ANSWERS = /<script type="application\/json" id="first-data">[^<]*<\/script>/;
/** The code a painted page loads after its first frame, and its loader (shared/code-after-paint.ts). */
const CODE_AFTER_PAINT = new RegExp(`<script type="application/json" id="${CODE_AFTER_PAINT_ELEMENT_ID}">([^<]*)</script><script>[^<]*</script>`);
/** The root element with the page the server painted from those answers (client/src/entry-server.tsx). */
const PAINTED_ROOT = /<div id="root" inert>[\s\S]*<\/div>(\s*<\/body>)/;

/**
 * The console's pages arrive without the first answers their HTML carries (nor the page painted from them):
 * each page then asks for its data itself, as it does when the server could not answer in time. For tests of what a page shows while
 * its data is on the way (hold an API answer, see the placeholder), which the HTML's answers skip.
 */
export async function withoutFirstAnswers(target: Page | BrowserContext): Promise<void> {
  await target.route(
    (url) => !/^\/(api|assets|\.ory|ingest)\//.test(url.pathname),
    async (route) => {
      if (route.request().resourceType() !== 'document') return route.fallback();
      const response = await route.fetch();
      // As the server sends a page whose answers are not in: no answers, the root empty, the code in the head.
      let html = (await response.text()).replace(FIRST_ANSWERS, '');
      const later = CODE_AFTER_PAINT.exec(html);
      if (later) {
        const code = JSON.parse(later[1]!) as CodeAfterPaint;
        const tags = [`<script type="module" crossorigin src="${code.entry}"></script>`, ...code.preloads.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`)];
        html = html.replace(later[0], '').replace('</head>', () => `${tags.join('')}</head>`);
      }
      await route.fulfill({ response, body: html.replace(PAINTED_ROOT, '<div id="root"></div>$1') });
    },
  );
}

import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from './fixtures';
import { E2E_BASE_URL } from './ports';
import { createProject, createWorkspace, expectNoA11yViolationsInBothThemes, expectNoHorizontalScroll, expectNoLayoutViolations, newUser, registerByApi } from './support';

/**
 * Every page of the route registry, as a user reaches it: a sidebar link (the drawer on a phone) or
 * the command palette. Written out here, independent of the client's registry.
 */
interface Stop {
  path: (ids: Ids) => string;
  heading: (ids: Ids) => string;
  /** A sidebar link's test id, or the palette entry to search for and pick. */
  via: { sidebar: string } | { palette: string; search: string };
  soon?: boolean;
  scope: 'project' | 'workspace' | 'console';
}

interface Ids {
  project: string;
  projectName: string;
  workspace: string;
  workspaceName: string;
}

const project = (suffix: string, testId: string, heading: string, soon = true): Stop => ({
  path: (ids) => `/projects/${ids.project}/${suffix}`,
  heading: () => heading,
  via: { sidebar: testId },
  soon,
  scope: 'project',
});
const workspace = (suffix: string, testId: string, heading: string, soon = true): Stop => ({
  path: (ids) => `/workspaces/${ids.workspace}/${suffix}`,
  heading: () => heading,
  via: { sidebar: testId },
  soon,
  scope: 'workspace',
});

const PROJECT_STOPS: Stop[] = [
  { path: (ids) => `/projects/${ids.project}/get-started`, heading: (ids) => ids.projectName, via: { sidebar: 'nav-get-started' }, scope: 'project' },
  project('identities', 'nav-identities', 'Identities', false),
  project('sessions', 'nav-sessions', 'Sessions', false),
  project('identity-schema', 'nav-identity-schema', 'Identity schema', false),
  project('authentication', 'nav-authentication', 'Sign-in methods', false),
  project('passwordless', 'nav-passwordless', 'Passwordless', false),
  project('mfa', 'nav-mfa', 'Two-factor authentication', false),
  project('authentication/recovery', 'nav-auth-recovery', 'Account recovery', false),
  project('authentication/verification', 'nav-auth-verification', 'Email verification', false),
  project('authentication/sessions', 'nav-auth-sessions', 'Session lifespan', false),
  project('authentication/organizations', 'nav-organizations', 'Organizations', false),
  project('social-signin', 'nav-social-signin', 'Social sign-in', false),
  project('saml', 'nav-saml', 'SAML', false),
  project('oauth', 'nav-oauth', 'OAuth2 clients', false),
  project('oauth/endpoints', 'nav-oauth-endpoints', 'Endpoints', false),
  project('oauth/configure', 'nav-oauth-configure', 'Configuration', false),
  project('oauth/openid', 'nav-oauth-openid', 'OpenID Connect', false),
  project('oauth/urls', 'nav-oauth-urls', 'URLs', false),
  project('oauth/lifespans', 'nav-oauth-lifespans', 'Token lifespans', false),
  project('oauth/strategies', 'nav-oauth-strategies', 'Token strategies', false),
  project('oauth/cookies', 'nav-oauth-cookies', 'Cookies', false),
  project('permissions/relationships', 'nav-relationships', 'Relationships', false),
  project('permissions/configuration', 'nav-permissions-configuration', 'Permission rules', false),
  project('email-configuration', 'nav-email-configuration', 'Email configuration', false),
  project('sms-configuration', 'nav-sms-configuration', 'SMS configuration', false),
  project('email-templates', 'nav-email-templates', 'Email templates', false),
  project('email-delivery', 'nav-email-delivery', 'Delivery', false),
  project('account-experience', 'nav-account-experience', 'Account experience', false),
  project('account-experience/theming', 'nav-theming', 'Theming', false),
  {
    path: (ids) => `/projects/${ids.project}/account-experience/theming/customize`,
    heading: () => 'Customize theme',
    via: { palette: 'palette-route-themingCustomize', search: 'customize theme' },
    soon: false,
    scope: 'project',
  },
  project('activity', 'nav-activity', 'Activity', false),
  project('activity/events', 'nav-activity-events', 'Events', false),
  project('connect', 'nav-connect', 'Connect', false),
  project('developers', 'nav-developers', 'Developers', false),
  project('developers/actions', 'nav-developer-actions', 'Actions', false),
  project('settings', 'nav-project-settings', 'Project settings', false),
  project('settings/collaborators', 'nav-collaborators', 'Collaborators', false),
  project('settings/billing', 'nav-project-billing', 'Billing', false),
  project('custom-domains', 'nav-custom-domains', 'Custom domains', false),
  project('browser-redirects', 'nav-browser-redirects', 'Browser redirects', false),
  project('session-settings', 'nav-session-settings', 'Session settings', false),
  project('limits', 'nav-limits', 'Limits', false),
  project('ui', 'nav-ui-settings', 'User interface', false),
  project('settings/history', 'nav-project-history', 'Configuration history', false),
  project('settings/advanced', 'nav-project-advanced', 'Advanced', false),
];

const console_ = (path: string, testId: string, heading: string, soon = true): Stop => ({ path: () => path, heading: () => heading, via: { sidebar: testId }, soon, scope: 'console' });
const palette = (path: string, id: string, search: string, heading: string, soon = false): Stop => ({ path: () => path, heading: () => heading, via: { palette: `palette-route-${id}`, search }, soon, scope: 'console' });

const CONSOLE_STOPS: Stop[] = [
  console_('/projects', 'nav-projects', 'Projects', false),
  console_('/invites', 'nav-invites', 'Invites', false),
  console_('/get-started', 'nav-get-started-general', 'Guided tour', false),
  console_('/support', 'nav-support', 'Support', false),
  palette('/settings', 'accountSettings', 'account settings', 'Account settings'),
  palette('/settings/advanced', 'accountSettingsAdvanced', 'advanced account', 'Advanced account settings'),
  palette('/projects/create', 'createProject', 'create project', 'Create a project'),
  palette('/workspaces/create', 'createWorkspace', 'create workspace', 'Create a workspace'),
  console_('/workspaces', 'nav-workspaces', 'Workspaces', false),
];

const WORKSPACE_STOPS: Stop[] = [
  // From the workspace list, the palette opens the workspace itself.
  { path: (ids) => `/workspaces/${ids.workspace}`, heading: (ids) => ids.workspaceName, via: { palette: 'palette-workspace', search: 'acme' }, scope: 'workspace' },
  { path: (ids) => `/workspaces/${ids.workspace}/projects`, heading: (ids) => `${ids.workspaceName}: projects`, via: { sidebar: 'nav-workspace-projects' }, scope: 'workspace' },
  workspace('settings/members', 'nav-workspace-members', 'Members', false),
  workspace('settings/api-keys', 'nav-workspace-api-keys', 'API keys', false),
  workspace('settings/subscription', 'nav-workspace-subscription', 'Subscription', false),
  workspace('settings/billing', 'nav-workspace-billing', 'Billing', false),
  { path: (ids) => `/workspaces/${ids.workspace}/settings`, heading: () => 'Workspace settings', via: { sidebar: 'nav-workspace-settings' }, scope: 'workspace' },
  { path: (ids) => `/workspaces/${ids.workspace}`, heading: (ids) => ids.workspaceName, via: { sidebar: 'nav-workspace' }, scope: 'workspace' },
];

const ALL_STOPS = [...PROJECT_STOPS, ...CONSOLE_STOPS, ...WORKSPACE_STOPS];

// A 255-character name without spaces: the longest a project may have, and the hardest to lay out.
const LONG_NAME = `Long${'n'.repeat(247)}name`;

async function openSidebar(page: Page, mobile: boolean): Promise<Locator> {
  if (!mobile) return page.getByTestId('sidebar');
  await page.getByTestId('drawer-button').click();
  const drawer = page.getByRole('dialog', { name: 'Navigation' });
  await expect(drawer).toBeVisible();
  return drawer;
}

async function go(page: Page, stop: Stop, mobile: boolean): Promise<void> {
  if ('sidebar' in stop.via) {
    const sidebar = await openSidebar(page, mobile);
    const link = sidebar.getByTestId(stop.via.sidebar);
    // Pages not built yet wait in the "Coming soon" group, folded until opened.
    const soonToggle = sidebar.getByTestId('nav-group-toggle-soon');
    if (stop.soon && (await soonToggle.getAttribute('aria-expanded')) === 'false') await soonToggle.click();
    if (stop.soon) await expect(link.getByTestId('nav-soon')).toHaveText('Soon');
    else await expect(link.getByTestId('nav-soon')).toHaveCount(0);
    await link.click();
    if (mobile) await expect(page.getByTestId('drawer')).toBeHidden();
    return;
  }
  // The palette: by keyboard on a desktop, by its top-bar button on a phone.
  if (mobile) await page.getByTestId('palette-button').click();
  else await page.keyboard.press('Control+K');
  const dialog = page.getByRole('dialog', { name: 'Command palette' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('combobox').fill(stop.via.search);
  await dialog.getByTestId(stop.via.palette).first().click();
  await expect(dialog).toBeHidden();
}

/** Ids as route parameters: a stop's path with them is its route pattern, the name of its accessibility check. */
const PATTERN_IDS: Ids = { project: ':project', projectName: ':projectName', workspace: ':workspace', workspaceName: ':workspaceName' };

/**
 * Every screen gets the full axe run at 1440 px in the light theme and axe's colour rules in the dark one
 * (the theme changes colours only, the document is the same). At 390 px it gets the rules whose outcome
 * depends on the width (scrollable regions reachable by keyboard, target sizes): the document, its names,
 * roles and colours are the same at both widths. Menus, the palette and the drawer, the parts a phone shows
 * alone, get the full run in both themes. Pages not built yet all show the same placeholder in their frame
 * (project, workspace or console): it is checked once per frame, theme and width.
 */
async function checkA11y(page: Page, screen: string, mobile: boolean): Promise<void> {
  if (mobile) await expectNoLayoutViolations(page, screen);
  else await expectNoA11yViolationsInBothThemes(page, screen, { darkColorsOnly: true });
}

async function walk(page: Page, ids: Ids, mobile: boolean): Promise<void> {
  // Start on a project page other than the first stop, so that every stop is a navigation.
  await page.goto(`/projects/${ids.project}/settings`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Project settings');
  if (mobile) {
    await openSidebar(page, true);
    await expectNoA11yViolationsInBothThemes(page, 'navigation drawer (open)');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('drawer')).toBeHidden();
    await expect(page.getByTestId('drawer-button')).toBeFocused();
  }
  for (const stop of ALL_STOPS) {
    const path = stop.path(ids);
    await test.step(`${mobile ? '390' : '1440'} px: ${path}`, async () => {
      await go(page, stop, mobile);
      await expect(page).toHaveURL((url) => url.pathname === path);
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toHaveText(stop.heading(ids));
      // Focus moved into the new page: its heading, or the field a form page focuses itself.
      await expect(page.locator('main :focus')).toHaveCount(1);
      if (stop.soon) {
        await expect(heading).toBeFocused();
        await expect(page.getByTestId('soon-description')).toHaveText(/^[A-Z].+\.$/);
        await expect(page.getByTestId('soon-back')).toBeVisible();
      }
      if (stop.scope === 'project') await expect(page).toHaveTitle(new RegExp(` · ${ids.projectName} · Console$`));
      if (!mobile && 'sidebar' in stop.via) await expect(page.getByTestId('sidebar').getByTestId(stop.via.sidebar)).toHaveAttribute('aria-current', 'page');
      await expect(page.getByTestId('breadcrumbs')).toBeVisible();
      await expectNoHorizontalScroll(page, path);
      await checkA11y(page, stop.soon ? `placeholder page (${stop.scope})` : stop.path(PATTERN_IDS), mobile);
    });
  }
}

/** A signed-in user with a workspace "Acme" and a project of the longest name, in a context of its own. */
async function navigator(browser: Browser): Promise<{ context: BrowserContext; page: Page; ids: Ids }> {
  const context = await browser.newContext({ baseURL: E2E_BASE_URL, viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
  const page = await context.newPage();
  await registerByApi(page, newUser('navigator'));
  const workspaceName = 'Acme';
  const workspaceId = await createWorkspace(page, workspaceName);
  const projectId = await createProject(page, LONG_NAME);
  return { context, page, ids: { project: projectId, projectName: LONG_NAME, workspace: workspaceId, workspaceName } };
}

// The walks below take minutes each: each has its own user, so that they run beside each other and beside the
// shorter tests, which share one user and run in order.
test.describe('the sidebar, breadcrumbs and palette of one user', () => {
  test.describe.configure({ mode: 'serial' });

  let context: BrowserContext;
  let page: Page;
  let ids: Ids;

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    ({ context, page, ids } = await navigator(browser));
  });

  test.afterAll(async () => {
    await context?.close();
  });

  test('the sidebar shows every page in its group, with nothing left to come, and scrolls the current item into view', async () => {
    await page.setViewportSize({ width: 1440, height: 520 });
    await page.goto(`/projects/${ids.project}/settings/advanced`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Advanced');
    const sidebar = page.getByTestId('sidebar');
    const groups = sidebar.locator('[data-testid^="nav-group-toggle-"]');
    await expect(groups).toHaveText(['Overview', 'Identities', 'Authentication', 'Social & SAML', 'OAuth2', 'Permissions', 'Messaging', 'Account experience', 'Activity & developers', 'Project settings', 'Console']);
    await expect(sidebar.getByTestId('nav-soon')).toHaveCount(0);
    // The current item sits low in a short window: it is scrolled into view.
    await expect(sidebar.getByTestId('nav-project-advanced')).toHaveAttribute('aria-current', 'page');
    await expect(sidebar.getByTestId('nav-project-advanced')).toBeInViewport();
    // No two entries share a label.
    const labels = await sidebar.locator('.nav-link .nav-label').allTextContents();
    expect(labels.filter((label, i) => labels.indexOf(label) !== i)).toEqual([]);
  });

  test('detail pages highlight their parent and carry breadcrumbs up to it', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/projects/${ids.project}/identities/some-identity`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Identity');
    await expect(page.getByTestId('sidebar').getByTestId('nav-identities')).toHaveAttribute('aria-current', 'page');
    const crumbs = page.getByTestId('breadcrumbs').getByRole('listitem');
    await expect(crumbs).toHaveText(['Projects', ids.projectName, 'Identities', 'Identity']);
    await expect(page).toHaveTitle(`Identity · ${ids.projectName} · Console`);
    // The parent crumb leads back to the list.
    await page.getByTestId('breadcrumbs').getByRole('link', { name: 'Identities' }).click();
    await expect(page).toHaveURL((url) => url.pathname === `/projects/${ids.project}/identities`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Identities');
    // A collapsed group hides its links and stays collapsed across pages until opened again.
    const toggle = page.getByTestId('nav-group-toggle-messaging');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByTestId('nav-email-templates')).toBeHidden();
    await page.getByTestId('nav-sessions').click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sessions');
    await expect(page.getByTestId('nav-email-templates')).toBeHidden();
    await toggle.click();
    await expect(page.getByTestId('nav-email-templates')).toBeVisible();
  });

  test('the palette creates and switches projects; the help menu holds the external links', async () => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`/projects/${ids.project}/identities`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Identities');

    // Opened with the mouse from the top bar; Escape closes it and focus returns to the button.
    const button = page.getByTestId('palette-button');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await button.click();
    await expect(palette).toBeVisible();
    await expect(palette.getByRole('combobox')).toBeFocused();
    await expect(palette.getByRole('listbox')).toBeVisible();
    await expectNoA11yViolationsInBothThemes(page, 'command palette (open)');
    await page.keyboard.press('Escape');
    await expect(palette).toBeHidden();
    await expect(button).toBeFocused();

    // Create project: an action of the palette, by keyboard.
    await page.keyboard.press('Control+K');
    await palette.getByRole('combobox').fill('create project');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/projects\/create$/);
    await page.getByTestId('project-name-input').fill('Second');
    await page.getByTestId('create-project-submit').click();
    await expect(page.getByTestId('project-name')).toHaveText('Second');

    // Switch project: the palette lists every project.
    await page.keyboard.press('Control+K');
    await palette.getByRole('combobox').fill(ids.projectName.slice(0, 12));
    await expect(palette.getByTestId('palette-project')).toHaveCount(1);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/projects/${ids.project}/get-started$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(ids.projectName);
    await expect(page.getByTestId('project-switcher')).toContainText(ids.projectName);

    // Help: the support page and the spec's external links, each opening in a new tab.
    await page.getByTestId('help-menu').click();
    const help = page.getByTestId('help-menu-content');
    await expect(help).toBeVisible();
    const links = help.getByRole('menuitem');
    await expect(links).toHaveText([
      'Support',
      'Documentation(opens in a new tab)',
      'Service status(opens in a new tab)',
      'Pricing(opens in a new tab)',
      'Contact us(opens in a new tab)',
      'Talk to sales(opens in a new tab)',
      'Book a demo(opens in a new tab)',
      'Terms of service(opens in a new tab)',
      'Privacy policy(opens in a new tab)',
      'Homepage(opens in a new tab)',
    ]);
    for (const id of ['docs', 'status', 'pricing', 'contact', 'talkToSales', 'bookDemo', 'terms', 'privacy', 'homepage']) {
      await expect(help.getByTestId(`help-${id}`)).toHaveAttribute('href', /^https:\/\//);
      await expect(help.getByTestId(`help-${id}`)).toHaveAttribute('target', '_blank');
    }
    await expectNoA11yViolationsInBothThemes(page, 'help menu (open)');
    await help.getByTestId('help-support').click();
    await expect(page).toHaveURL(/\/support$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support');
  });
});

test('every registry page is reachable from the sidebar or the palette at 1440 px, without sideways scroll, accessible in both themes', async ({ browser }) => {
  test.setTimeout(1_800_000);
  const { context, page, ids } = await navigator(browser);
  await page.setViewportSize({ width: 1440, height: 900 });
  await walk(page, ids, false);
  await context.close();
});

test('every registry page is reachable from the drawer or the palette at 390 px, without sideways scroll, passing the accessibility rules that depend on the width (the full check runs at 1440 px)', async ({ browser }) => {
  test.setTimeout(1_800_000);
  const { context, page, ids } = await navigator(browser);
  await page.setViewportSize({ width: 390, height: 844 });
  await walk(page, ids, true);
  await context.close();
});

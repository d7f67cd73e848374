import { expect, test } from './fixtures';
import { createProject, createWorkspace, expectNoA11yViolations, expectNoA11yViolationsInBothThemes, expectNoColorViolations, newUser, register, signOut } from './support';

test('light, dark and system themes: chosen in the user menu, kept across visits, accessible in both', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  const root = page.locator('html');

  // Signed out: the identity pages follow the system setting.
  await page.goto('/login');
  await expect(page.getByTestId('flow-form')).toBeVisible();
  await expectNoA11yViolationsInBothThemes(page, 'login');
  const favicon = page.locator('link[rel="icon"]');
  await expect(favicon).toHaveAttribute('href', '/favicon.svg');
  const icon = await page.request.get('/favicon.svg');
  expect(icon.status()).toBe(200);
  expect(icon.headers()['content-type']).toContain('image/svg+xml');

  await register(page, newUser('themer'));
  await expect(page.getByTestId('projects-empty')).toBeVisible();
  await expect(root).toHaveAttribute('data-theme-preference', 'system');

  // Dark from the user menu, even under a light system setting; the menu marks the choice.
  await page.getByTestId('user-menu').click();
  const menu = page.getByTestId('user-menu-content');
  await expect(menu).toBeVisible();
  await expect(page.getByRole('menuitemradio', { name: 'System' })).toHaveAttribute('aria-checked', 'true');
  await expectNoA11yViolations(page, 'user menu (open, light)');
  await page.getByRole('menuitemradio', { name: 'Dark' }).click();
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('body')).toHaveCSS('background-color', 'rgb(15, 17, 21)');
  await page.getByTestId('user-menu').click();
  await expect(page.getByRole('menuitemradio', { name: 'Dark' })).toHaveAttribute('aria-checked', 'true');
  await expectNoA11yViolations(page, 'user menu (open, dark)');
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(page.getByTestId('user-menu')).toBeFocused();

  // The choice is kept across a reload and beats the system setting.
  await page.reload();
  await expect(page.getByTestId('projects-empty')).toBeVisible();
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await expectNoA11yViolations(page, 'projects (dark)');

  // Light, chosen by keyboard, beats a dark system setting.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByTestId('user-menu').focus();
  await page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await page.getByRole('menuitemradio', { name: 'Light' }).focus();
  await page.keyboard.press('Enter');
  await expect(root).toHaveAttribute('data-theme', 'light');

  // System follows the operating system as it changes.
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitemradio', { name: 'System' }).click();
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expect(root).toHaveAttribute('data-theme', 'light');

  // The palette runs the same choice.
  await page.keyboard.press('Control+K');
  const palette = page.getByRole('dialog', { name: 'Command palette' });
  await palette.getByRole('combobox').fill('dark theme');
  await page.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await expect(root).toHaveAttribute('data-theme-preference', 'dark');

  // Signing out keeps the theme for the sign-in page.
  await signOut(page);
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await expectNoA11yViolations(page, 'login (dark, chosen)');
});

test('billing and plans follow the dark theme: cards on dark surfaces, text with enough contrast', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await register(page, newUser('darkplans'));
  const project = await createProject(page, 'Night');
  const root = page.locator('html');

  /** Relative luminance (WCAG) of every plan card's computed background. */
  const cardLuminance = () =>
    page.locator('[data-testid^="plan-card-"]').evaluateAll((cards) =>
      cards.map((card) => {
        // rgb(…) in 0–255, or color(srgb …) in 0–1 for a mixed colour.
        const colour = getComputedStyle(card).backgroundColor;
        const scale = colour.startsWith('color(srgb') ? 1 : 255;
        const [r, g, b] = (colour.replace(/^color\(srgb/, '').match(/[\d.]+/g) ?? []).map(Number).map((v) => v / scale);
        const lin = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
        return 0.2126 * lin(r ?? 1) + 0.7152 * lin(g ?? 1) + 0.0722 * lin(b ?? 1);
      }),
    );

  await page.goto(`/projects/${project}/settings/billing`);
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('[data-testid^="plan-card-"]')).toHaveCount(4);
  const dark = await cardLuminance();
  // Pastel or white cards have a luminance near 1; the dark surfaces are below 0.05.
  for (const l of dark) expect(l).toBeLessThan(0.05);
  await expectNoColorViolations(page, 'project billing (dark)');

  await page.emulateMedia({ colorScheme: 'light' });
  await expect(root).toHaveAttribute('data-theme', 'light');
  for (const l of await cardLuminance()) expect(l).toBeGreaterThan(0.8);
  await expectNoColorViolations(page, 'project billing (light)');

  const workspace = await createWorkspace(page, 'Night shift');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/workspaces/${workspace}/settings/subscription`);
  await expect(root).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('[data-testid^="plan-card-"]').first()).toBeVisible();
  for (const l of await cardLuminance()) expect(l).toBeLessThan(0.05);
  await expectNoColorViolations(page, 'workspace subscription (dark)');
});

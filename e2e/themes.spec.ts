import { expect, test } from '@playwright/test';
import { expectNoA11yViolations, expectNoA11yViolationsInBothThemes, newUser, register, signOut } from './support';

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

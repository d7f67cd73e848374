import { expect, test } from './fixtures';
import { newUser, registerByApi } from './support';

test('a table wider than its card can be reached and scrolled from the keyboard; one that fits adds no tab stop', async ({ page }) => {
  await registerByApi(page, newUser('table-scroll'));
  // A window as wide as a small laptop's half: the account's cards are narrower than the sessions table.
  await page.setViewportSize({ width: 760, height: 900 });
  await page.goto('/settings/advanced');
  await expect(page.getByTestId('sessions-table')).toBeVisible();
  // The device reads as a person would say it, as in a project's sessions, not as the whole user agent.
  await expect(page.getByTestId('sessions-table')).toContainText(/Chrome on Linux · [\d.:a-f]+/);
  await expect(page.getByTestId('sessions-table')).not.toContainText('Mozilla/5.0');
  const table = page.getByTestId('advanced-sessions').locator('.table-wrap');
  const scrolls = () => table.evaluate((el) => el.scrollWidth > el.clientWidth + 1);

  // The sessions table (the device, the day, the methods, the actions) is wider than its card: it scrolls
  // sideways, so it is a named region in the tab order, and the keyboard scrolls it.
  await expect.poll(scrolls).toBe(true);
  await expect(table).toHaveAttribute('tabindex', '0');
  await expect(table).toHaveAttribute('role', 'region');
  await expect(table).toHaveAccessibleName('Active sessions');
  await table.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => table.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);

  // On a phone the rows stack and fit: no region, no tab stop.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(scrolls).toBe(false);
  await expect(table).not.toHaveAttribute('tabindex');
  await expect(table).not.toHaveAttribute('role');
});

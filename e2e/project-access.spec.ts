import { expect, test } from './fixtures';
import { LOADING_GRACE_MS, TOAST_WIDTH_PX } from '../shared/constants';
import { MESSAGES } from '../shared/messages';
import { expectNoA11yViolations, newUser, registerByApi } from './support';

interface LoadingTimes {
  mounted?: number;
  shown?: number;
}

test('a project the user cannot open: Loading Project after the grace period, the access-failure toast, back to the list', async ({ page }) => {
  await registerByApi(page, newUser('outsider'));

  // When the loading screen is mounted and when it becomes visible, measured in the page.
  await page.addInitScript(() => {
    const times: LoadingTimes = {};
    (window as Window & { loadingTimes?: LoadingTimes }).loadingTimes = times;
    new MutationObserver(() => {
      const screen = document.querySelector('[data-testid="loading-project"]');
      if (screen && times.mounted === undefined) times.mounted = performance.now();
      if (screen?.getAttribute('data-visible') === 'true' && times.shown === undefined) times.shown = performance.now();
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  // Hold the project until the loading screen has been checked.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith('/api/trpc/') && url.pathname.includes('projects.get'),
    async (route) => {
      await released;
      await route.continue();
    },
  );

  await page.goto('/projects/00000000-0000-4000-8000-000000000000/get-started');
  const loading = page.getByTestId('loading-project');
  await expect(loading).toHaveText(MESSAGES.loadingProject);
  const times = await page.evaluate(() => (window as Window & { loadingTimes?: LoadingTimes }).loadingTimes);
  expect(times?.mounted).toBeDefined();
  expect((times?.shown ?? 0) - (times?.mounted ?? 0)).toBeGreaterThanOrEqual(LOADING_GRACE_MS - 5);
  await expect(page).toHaveTitle(/Console$/);
  await expectNoA11yViolations(page, 'Loading Project');
  release();

  const toastMessage = page.getByTestId('toast-error');
  await expect(toastMessage).toHaveText(MESSAGES.projectAccessFailure);
  // A pointer resting on a toast pauses its 4 s timer, as it does for a person reading it: the checks below
  // then see the toast however long they take on a busy machine.
  const toast = page.locator('.toast').filter({ has: toastMessage });
  await toast.hover();
  await expect(page).toHaveURL(/\/projects$/);
  await expect(loading).toBeHidden();

  // Spec §2: bottom right, 300px wide, with a dismiss button.
  await expect(toast).toHaveCSS('width', `${TOAST_WIDTH_PX}px`);
  const box = await toast.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport).toBeTruthy();
  if (box && viewport) {
    // In the bottom-right quarter, against the right edge.
    expect(box.x + box.width).toBeGreaterThan(viewport.width - 40);
    expect(box.y).toBeGreaterThan(viewport.height / 2);
  }
  await expectNoA11yViolations(page, 'projects with an error toast', { toasts: true });
  await toast.getByTestId('toast-dismiss').click();
  await expect(toastMessage).toBeHidden();
});

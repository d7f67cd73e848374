import { expect, test, type Page } from '@playwright/test';
import { createProject, newUser, register } from './support';

interface Timing {
  ms: number;
  /** Animation frames in which the main area had no page heading. */
  blankFrames: number;
  /** Animation frames in which the sidebar was missing. */
  framelessFrames: number;
}

/**
 * Clicks an element and answers the time until the heading reads `heading` in a painted frame,
 * watching every frame in between: was the main area ever without a heading, the sidebar ever gone?
 */
async function timeClick(page: Page, selector: string, heading: string): Promise<Timing> {
  return page.evaluate(
    ({ selector, heading }) =>
      new Promise<Timing>((resolve, reject) => {
        const target = document.querySelector<HTMLElement>(selector);
        if (!target) return reject(new Error(`No ${selector}`));
        let blankFrames = 0;
        let framelessFrames = 0;
        const start = performance.now();
        target.click();
        const frame = () => {
          const h1 = document.querySelector('main h1');
          if (!document.querySelector('[data-testid="sidebar"]')) framelessFrames += 1;
          if (h1?.textContent === heading) {
            // The next frame is the first one painted with the heading.
            requestAnimationFrame(() => resolve({ ms: Math.round(performance.now() - start), blankFrames, framelessFrames }));
            return;
          }
          if (!h1) blankFrames += 1;
          requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
    { selector, heading },
  );
}

test('pages paint without a blank main area, the frame stays while a project loads', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await register(page, newUser('speedy'));
  const alpha = await createProject(page, 'Alpha');
  const beta = await createProject(page, 'Beta');
  await page.goto(`/projects/${beta}/get-started`);
  await expect(page.getByTestId('project-name')).toHaveText('Beta');

  const settings = await timeClick(page, '[data-testid="nav-project-settings"]', 'Project settings');
  const identities = await timeClick(page, '[data-testid="nav-identities"]', 'Identities');
  const home = await timeClick(page, '[data-testid="nav-get-started"]', 'Beta');
  const settingsAgain = await timeClick(page, '[data-testid="nav-project-settings"]', 'Project settings');
  const identitiesAgain = await timeClick(page, '[data-testid="nav-identities"]', 'Identities');
  const figures = { settings, identities, home, settingsAgain, identitiesAgain };

  // A page whose code is in never leaves the main area without a heading, first visit or not.
  for (const [name, timing] of Object.entries(figures)) {
    expect(timing.blankFrames, name).toBe(0);
    expect(timing.framelessFrames, name).toBe(0);
  }

  // Switching project: the frame (sidebar) stays on screen while the other project loads.
  await page.getByTestId('project-switcher').click();
  await page.getByTestId('project-switcher-option').filter({ hasText: 'Alpha' }).hover();
  const switched = await timeClick(page, '[data-testid="project-switcher-option"][data-value="' + alpha + '"]', 'Alpha');
  expect(switched.framelessFrames).toBe(0);
  await expect(page).toHaveURL(new RegExp(`/projects/${alpha}/get-started$`));

  const line = Object.entries({ ...figures, switchProject: switched })
    .map(([name, t]) => `${name}: ${t.ms} ms (frames without heading: ${t.blankFrames})`)
    .join('; ');
  test.info().annotations.push({ type: 'click-to-painted-heading', description: line });
  console.log(`click to painted heading — ${line}`);
});

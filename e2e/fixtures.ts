import { test as base } from '@playwright/test';
import { waitUntilLive } from './support';

export * from '@playwright/test';

/**
 * Playwright's `test`, whose `page.goto` also waits until a page the server painted is live: its code comes
 * after the browser's first frame (shared/code-after-paint.ts), often after the load event `goto` waits for,
 * and until then the page is the server's inert copy, which the console's render replaces. A measure taken
 * or a file set on that copy would go with it. `waitUntil: 'commit'` keeps the painted page, for the journeys
 * about it.
 */
export const test = base.extend({
  page: async ({ page }, use) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      if (options?.waitUntil !== 'commit') await waitUntilLive(page);
      return response;
    };
    await use(page);
  },
});

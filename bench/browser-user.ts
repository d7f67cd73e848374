import type { Browser, Cookie } from '@playwright/test';

/** The password of every user the page benchmarks sign up. */
export const PASSWORD = 'Violet-Harbor-Lantern-2041';

/**
 * Signs a new user up through the console's own registration page, with a workspace and a project made
 * through its pages; answers the session cookies and the two ids. `label` names the user and what it makes.
 */
export async function signUpInBrowser(browser: Browser, base: string, label: string): Promise<{ cookies: Cookie[]; project: string; workspace: string }> {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await page.goto('/registration');
  const form = page.getByTestId('flow-form');
  await form.getByTestId('flow-input-traits.email').fill(`${label.toLowerCase()}-${Date.now().toString(36)}@example.com`);
  await form.getByTestId('flow-input-traits.name').fill(label);
  await form.getByTestId('flow-input-password').fill(PASSWORD);
  await form.getByRole('button', { name: /sign up|register|create/i }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/registration'));

  await page.goto('/workspaces/create');
  await page.getByTestId('workspace-name-input').fill(`${label} workspace`);
  await page.getByTestId('create-workspace-submit').click();
  await page.waitForURL(/\/workspaces\/[0-9a-f-]{36}$/);
  const workspace = /\/workspaces\/([0-9a-f-]{36})$/.exec(page.url())?.[1] ?? '';

  await page.goto('/projects/create');
  await page.getByTestId('project-name-input').fill(label);
  await page.getByTestId('create-project-submit').click();
  await page.waitForURL(/\/projects\/[0-9a-f-]{36}\/get-started$/);
  const project = /\/projects\/([0-9a-f-]{36})\//.exec(page.url())?.[1] ?? '';
  const cookies = await context.cookies();
  await context.close();
  return { cookies, project, workspace };
}

import { expect, type Page } from '@playwright/test';

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

export async function fillLogin(page: Page, email: string, password: string): Promise<void> {
  const form = page.getByTestId('flow-form');
  await form.getByTestId('flow-input-identifier').fill(email);
  await form.getByTestId('flow-input-password').fill(password);
  await form.getByRole('button', { name: /sign in|log in|continue/i }).click();
}

export async function signOut(page: Page): Promise<void> {
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

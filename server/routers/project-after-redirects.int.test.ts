import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';
import { browserOf, csrfOf } from '../test-support/project-flows';

/*
 * The after-flow return URLs of /browser-redirects (`selfservice.flows.{login,registration}.after.default_browser_return_url`),
 * observed where a project's browser flows send the browser when it named no return_to.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Redirect Owner' })).cookie);
});
afterAll(async () => {
  await stack?.close();
});

type Answer = { continue_with?: { action: string; redirect_browser_to?: string }[] };
const redirectOf = (answer: unknown) => (answer as Answer).continue_with?.find((c) => c.action === 'redirect_browser_to')?.redirect_browser_to;

describe('after-flow return URLs', () => {
  it('send the browser where /browser-redirects says after sign-up and sign-in, else to the default', async () => {
    const project = await owner.projects.create({ name: 'After redirects', environment: 'dev' });
    const base = `${stack.url}/project-api/${project.slug}`;
    await owner.projectConfig.setBrowserRedirects({
      projectId: project.id,
      default_browser_return_url: 'https://app.example.com/',
      after_registration: 'https://app.example.com/welcome',
      after_login: 'https://app.example.com/dashboard',
    });
    const email = 'after@example.com';
    const password = 'a-Long-and-unusual-passw0rd';
    const b = browserOf(base);
    const registration = b.keep(await b.api.createBrowserRegistrationFlow());
    const signedUp = b.keep(
      await b.api.updateRegistrationFlow({
        flow: registration.data.id,
        cookie: b.cookie(),
        updateRegistrationFlowBody: { method: 'password', csrf_token: csrfOf(registration.data), password, traits: { email, name: 'After' } },
      }),
    );
    expect(redirectOf(signedUp.data)).toBe('https://app.example.com/welcome');

    const c = browserOf(base);
    const login = c.keep(await c.api.createBrowserLoginFlow());
    const signedIn = await c.api.updateLoginFlow({ flow: login.data.id, cookie: c.cookie(), updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(login.data), identifier: email, password } });
    expect(redirectOf(signedIn.data)).toBe('https://app.example.com/dashboard');

    // Without an after-login URL the project's default applies.
    await owner.projectConfig.setBrowserRedirects({ projectId: project.id, after_login: '' });
    const d = browserOf(base);
    const again = d.keep(await d.api.createBrowserLoginFlow());
    const plain = await d.api.updateLoginFlow({ flow: again.data.id, cookie: d.cookie(), updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(again.data), identifier: email, password } });
    expect(redirectOf(plain.data)).toBe('https://app.example.com/');
  });
});

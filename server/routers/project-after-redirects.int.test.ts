import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';
import { anyStatus, browserOf, csrfOf, latestMailedCode } from '../test-support/project-flows';

/*
 * The after-flow return URLs of /browser-redirects (`selfservice.flows.{login,registration,settings,recovery,verification,logout}.after.default_browser_return_url`),
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

  it('send the browser where /browser-redirects says after settings, verification, recovery and sign-out', async () => {
    const project = await owner.projects.create({ name: 'After other flows', environment: 'dev' });
    const base = `${stack.url}/project-api/${project.slug}`;
    await owner.projectConfig.setBrowserRedirects({
      projectId: project.id,
      allowed_return_urls: ['https://app.example.com/'],
      after_settings: 'https://app.example.com/settings-saved',
      after_recovery: 'https://app.example.com/recovered',
      after_verification: 'https://app.example.com/verified',
      after_logout: 'https://app.example.com/goodbye',
    });
    const email = 'after-others@example.com';
    const password = 'a-Long-and-unusual-passw0rd';
    const b = browserOf(base);
    const registration = b.keep(await b.api.createBrowserRegistrationFlow());
    b.keep(
      await b.api.updateRegistrationFlow({
        flow: registration.data.id,
        cookie: b.cookie(),
        updateRegistrationFlowBody: { method: 'password', csrf_token: csrfOf(registration.data), password, traits: { email, name: 'Others' } },
      }),
    );

    // Settings: saving the profile sends the browser to the after-settings URL.
    const settings = b.keep(await b.api.createBrowserSettingsFlow({ cookie: b.cookie() }));
    const saved = b.keep(
      await b.api.updateSettingsFlow({
        flow: settings.data.id,
        cookie: b.cookie(),
        updateSettingsFlowBody: { method: 'profile', csrf_token: csrfOf(settings.data), traits: { email, name: 'Renamed' } },
      }),
    );
    expect(redirectOf(saved.data)).toBe('https://app.example.com/settings-saved');

    // Verification: the continue link of a verified address is the after-verification URL.
    const verification = b.keep(await b.api.createBrowserVerificationFlow());
    b.keep(await b.api.updateVerificationFlow({ flow: verification.data.id, cookie: b.cookie(), updateVerificationFlowBody: { method: 'code', email, csrf_token: csrfOf(verification.data) } }));
    const { code: verificationCode } = await latestMailedCode(stack.url, email, project.slug);
    const verified = b.keep(
      await b.api.updateVerificationFlow({ flow: verification.data.id, cookie: b.cookie(), updateVerificationFlowBody: { method: 'code', code: verificationCode, csrf_token: csrfOf(verification.data) } }),
    );
    expect(verified.data.state).toBe('passed_challenge');
    const continueLink = verified.data.ui.nodes.find((n) => (n.attributes as { id?: string }).id === 'continue');
    expect((continueLink?.attributes as { href?: string } | undefined)?.href).toBe('https://app.example.com/verified');

    // Sign-out: a return_to outside the allowed list is refused; without one the browser goes to the after-logout URL.
    const outside = await b.api.createBrowserLogoutFlow({ cookie: b.cookie(), returnTo: 'https://evil.example.com/' }, anyStatus);
    expect(outside.status).toBe(400);
    const inside = await b.api.createBrowserLogoutFlow({ cookie: b.cookie(), returnTo: 'https://app.example.com/elsewhere' }, anyStatus);
    expect(inside.status).toBe(200);
    const logout = await b.api.createBrowserLogoutFlow({ cookie: b.cookie() });
    const signedOut = await fetch(logout.data.logout_url, { headers: { cookie: b.cookie() }, redirect: 'manual' });
    expect(signedOut.status).toBe(303);
    expect(signedOut.headers.get('location')).toBe('https://app.example.com/goodbye');

    // Recovery: the settings flow it opens returns to the after-recovery URL once the new password is set.
    const c = browserOf(base);
    const recovery = c.keep(await c.api.createBrowserRecoveryFlow());
    c.keep(await c.api.updateRecoveryFlow({ flow: recovery.data.id, cookie: c.cookie(), updateRecoveryFlowBody: { method: 'code', email, csrf_token: csrfOf(recovery.data) } }));
    const { code } = await latestMailedCode(stack.url, email, project.slug);
    const recovered = c.keep(
      await c.api.updateRecoveryFlow({ flow: recovery.data.id, cookie: c.cookie(), updateRecoveryFlowBody: { method: 'code', code, csrf_token: csrfOf(recovery.data) } }, anyStatus),
    );
    expect(recovered.status).toBe(422);
    const settingsId = new URL((recovered.data as unknown as { redirect_browser_to: string }).redirect_browser_to).searchParams.get('flow') ?? '';
    const opened = await c.api.getSettingsFlow({ id: settingsId, cookie: c.cookie() });
    expect(opened.data.return_to).toBe('https://app.example.com/recovered');
  });
});

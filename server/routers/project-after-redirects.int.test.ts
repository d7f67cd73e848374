import { Configuration, OAuth2Api } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { CookieJar, registerUser } from '../test-support/users';
import { anyStatus, browserOf, csrfOf, latestMailedCode } from '../test-support/project-flows';
import { setPlan, startSamlTestIdp, type SamlTestIdp } from '../test-support/localstack-data';

/*
 * The after-flow return URLs of /browser-redirects (`selfservice.flows.{login,registration,settings,recovery,verification,logout}.after.default_browser_return_url`),
 * observed where a project's browser flows send the browser when it named no return_to.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;
let samlIdp: SamlTestIdp;

beforeAll(async () => {
  [stack, samlIdp] = await Promise.all([startTestStack(), startSamlTestIdp()]);
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Redirect Owner' })).cookie);
});
afterAll(async () => {
  await samlIdp?.close();
  await stack?.close();
});

type Answer = { continue_with?: { action: string; redirect_browser_to?: string }[] };
const redirectOf = (answer: unknown) => (answer as Answer).continue_with?.find((c) => c.action === 'redirect_browser_to')?.redirect_browser_to;

/** A browser that follows no redirect itself: one cookie jar for every project of the stack. */
function navigator() {
  const jar = new CookieJar();
  const go = async (url: string, form?: Record<string, string>) => {
    const res = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: jar.header(), accept: 'text/html', ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { body: new URLSearchParams(form).toString() } : {}),
    });
    jar.store(res.headers.getSetCookie());
    return res;
  };
  /** Where an answer sends the browser (every step of these flows answers with a redirect). */
  const next = (res: Response) => {
    expect([302, 303]).toContain(res.status);
    return new URL(res.headers.get('location') ?? '', res.url).href;
  };
  /** Opens a browser flow of `base` (with `returnTo`) and presses a button of it; answers where the browser is sent. */
  const press = async (base: string, kind: 'login' | 'registration', fields: Record<string, string>, returnTo?: string) => {
    const ui = new URL(next(await go(`${base}/self-service/${kind}/browser${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`)));
    const flow = (await (await fetch(`${base}/self-service/${kind}/flows?id=${ui.searchParams.get('flow')}`, { headers: { cookie: jar.header() } })).json()) as { id: string; ui: { nodes: { attributes: unknown }[] } };
    return next(await go(`${base}/self-service/${kind}?flow=${flow.id}`, { csrf_token: csrfOf(flow), ...fields }));
  };
  return { go, next, press };
}

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

  it('send a social sign-in where sign-ins go, and one that registers where sign-ups go; return_to still wins', async () => {
    // The identity provider is another project's OAuth2 server; its login and consent are answered through its admin API.
    const provider = await owner.projects.create({ name: 'After social provider', environment: 'dev' });
    const providerBase = `${stack.url}/project-api/${provider.slug}`;
    const key = (await owner.apiKeys.create({ projectId: provider.id, name: 'Provider' })).value;
    const hydra = new OAuth2Api(new Configuration({ basePath: providerBase, accessToken: key }));
    const project = await owner.projects.create({ name: 'After social', environment: 'dev' });
    const base = `${stack.url}/project-api/${project.slug}`;
    const { data: client } = await hydra.createOAuth2Client({
      oAuth2Client: { redirect_uris: [`${base}/self-service/methods/oidc/callback/acme`], grant_types: ['authorization_code'], response_types: ['code'], scope: 'openid email profile' },
    });
    await owner.socialProviders.set({ projectId: project.id, id: 'acme', provider: 'generic', label: 'Acme', client_id: client.client_id!, client_secret: client.client_secret!, issuer_url: providerBase, create: true });
    await owner.projectConfig.setBrowserRedirects({
      projectId: project.id,
      default_browser_return_url: 'https://app.example.com/',
      allowed_return_urls: ['https://app.example.com/'],
      after_registration: 'https://app.example.com/welcome',
      after_login: 'https://app.example.com/dashboard',
    });

    /** Signs in at Acme as `subject` from a flow of `kind`; answers where the project sends the browser at last. */
    const socialSignIn = async (kind: 'login' | 'registration', subject: string, returnTo?: string) => {
      const b = navigator();
      const authorize = await b.press(base, kind, { provider: 'acme' }, returnTo);
      expect(authorize.startsWith(`${providerBase}/oauth2/auth`)).toBe(true);
      const loginChallenge = new URL(b.next(await b.go(authorize))).searchParams.get('login_challenge')!;
      const { data: login } = await hydra.acceptOAuth2LoginRequest({ loginChallenge, acceptOAuth2LoginRequest: { subject } });
      const consentChallenge = new URL(b.next(await b.go(login.redirect_to))).searchParams.get('consent_challenge')!;
      const { data: consent } = await hydra.acceptOAuth2ConsentRequest({
        consentChallenge,
        acceptOAuth2ConsentRequest: { grant_scope: ['openid', 'email', 'profile'], session: { id_token: { email: `${subject}@example.com` } } },
      });
      const callback = b.next(await b.go(consent.redirect_to));
      expect(callback.startsWith(`${base}/self-service/methods/oidc/callback/acme`)).toBe(true);
      return b.next(await b.go(callback));
    };

    // From a login flow, a person the project does not know yet is registered: the after-registration URL.
    expect(await socialSignIn('login', 'newcomer')).toBe('https://app.example.com/welcome');
    // Known now, from a login or a registration flow alike: the after-login URL.
    expect(await socialSignIn('login', 'newcomer')).toBe('https://app.example.com/dashboard');
    expect(await socialSignIn('registration', 'newcomer')).toBe('https://app.example.com/dashboard');
    // The method's own after URL comes before the flow's (`after.oidc.default_browser_return_url`).
    await owner.projects.patch({
      projectId: project.id,
      patch: [
        { op: 'add', path: '/services/identity/config/selfservice/flows/login/after/oidc', value: { default_browser_return_url: 'https://app.example.com/social-dashboard' } },
        { op: 'add', path: '/services/identity/config/selfservice/flows/registration/after/oidc', value: { default_browser_return_url: 'https://app.example.com/social-welcome' } },
      ],
    });
    expect(await socialSignIn('login', 'newcomer')).toBe('https://app.example.com/social-dashboard');
    expect(await socialSignIn('registration', 'second-newcomer')).toBe('https://app.example.com/social-welcome');
    // An allowed return_to of the flow wins over all of them.
    expect(await socialSignIn('login', 'newcomer', 'https://app.example.com/deep/link')).toBe('https://app.example.com/deep/link');
  });

  it('send a SAML sign-in where sign-ins go, and one that registers where sign-ups go; return_to still wins', async () => {
    const project = await owner.projects.create({ name: 'After SAML', environment: 'dev' });
    const base = `${stack.url}/project-api/${project.slug}`;
    await setPlan(stack.stack.db, { kind: 'project', project: { id: project.id, workspace_id: null } }, 'enterprise');
    await owner.samlProviders.set({ projectId: project.id, id: 'corp', label: 'Corp SSO', idp_metadata_xml: samlIdp.metadataXml, create: true });
    await owner.projectConfig.setBrowserRedirects({
      projectId: project.id,
      default_browser_return_url: 'https://app.example.com/',
      allowed_return_urls: ['https://app.example.com/'],
      after_registration: 'https://app.example.com/welcome',
      after_login: 'https://app.example.com/dashboard',
    });

    /** Signs in at the identity provider as `subject` from a flow of `kind`; answers where the project sends the browser. */
    const samlSignIn = async (kind: 'login' | 'registration', subject: string, returnTo?: string) => {
      const b = navigator();
      const sso = await b.press(base, kind, { method: 'saml', provider: 'corp' }, returnTo);
      expect(sso.startsWith(`${samlIdp.url}/sso?`)).toBe(true);
      const { request, relayState } = await samlIdp.readRequest(sso);
      const answer = await samlIdp.respond(request, relayState, { subject, email: `${subject}@corp.example` });
      return b.next(await b.go(answer.acsUrl, { SAMLResponse: answer.SAMLResponse, RelayState: answer.RelayState }));
    };

    expect(await samlSignIn('login', 'grace')).toBe('https://app.example.com/welcome');
    expect(await samlSignIn('login', 'grace')).toBe('https://app.example.com/dashboard');
    expect(await samlSignIn('registration', 'grace')).toBe('https://app.example.com/dashboard');
    expect(await samlSignIn('login', 'grace', 'https://app.example.com/deep/link')).toBe('https://app.example.com/deep/link');
    // Without after URLs, the project's default.
    await owner.projectConfig.setBrowserRedirects({ projectId: project.id, after_login: '', after_registration: '' });
    expect(await samlSignIn('login', 'grace')).toBe('https://app.example.com/');
    expect(await samlSignIn('registration', 'hopper')).toBe('https://app.example.com/');
  });
});

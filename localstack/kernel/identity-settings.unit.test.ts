import { describe, expect, it } from 'vitest';
import { isAllowedReturnUrl, returnUrlAfter, sessionCookieSettingsOf, settingsOf } from './identity-settings';

describe('the identity settings of a project config', () => {
  it('take Ory Network’s defaults for what is not set, and Kratos’ names for what is', () => {
    expect(settingsOf({})).toMatchObject({
      methods: { password: true, code: true, profile: true, totp: false, lookup_secret: false },
      totpIssuer: null,
      whoamiRequiredAal: 'highest_available',
      settingsRequiredAal: 'highest_available',
      password: { minLength: 8, identifierSimilarity: true, breachedCheck: true },
      registrationEnabled: true,
      recovery: { enabled: true, use: 'code', lifespanMs: null },
      sessionLifespanMs: null,
      allowedReturnUrls: [],
      uiUrls: {},
    });
    const set = settingsOf({
      selfservice: {
        methods: {
          password: { enabled: false, config: { min_password_length: 12, haveibeenpwned_enabled: false } },
          totp: { enabled: true, config: { issuer: 'Example' } },
          lookup_secret: { enabled: true },
        },
        flows: { registration: { enabled: false }, settings: { required_aal: 'aal1' }, recovery: { use: 'link', lifespan: '15m' }, login: { ui_url: 'https://auth.example.com/login' } },
        allowed_return_urls: ['https://app.example.com/', 7],
      },
      session: { lifespan: '2h', whoami: { required_aal: 'aal1' } },
    });
    expect(set).toMatchObject({
      methods: { password: false, totp: true, lookup_secret: true },
      totpIssuer: 'Example',
      whoamiRequiredAal: 'aal1',
      settingsRequiredAal: 'aal1',
      password: { minLength: 12, breachedCheck: false },
      registrationEnabled: false,
      recovery: { use: 'link', lifespanMs: 15 * 60_000 },
      sessionLifespanMs: 2 * 60 * 60_000,
      allowedReturnUrls: ['https://app.example.com/'],
      uiUrls: { login: 'https://auth.example.com/login' },
    });
  });

  it('ignore values Kratos would refuse: a minimum under 6, a duration that is not one', () => {
    expect(settingsOf({ selfservice: { methods: { password: { config: { min_password_length: 3 } } } }, session: { lifespan: 'soon' } })).toMatchObject({
      password: { minLength: 8 },
      sessionLifespanMs: null,
    });
  });
});

describe('one-time codes, security keys and after-flow URLs', () => {
  it('reads the code method: passwordless turns it on, MFA only without passwordless, bounded submissions', () => {
    expect(settingsOf({}).codeLogin).toEqual({ passwordless: false, mfa: false, lifespanMs: null, maxSubmissions: 5, fallback: false });
    const on = settingsOf({ selfservice: { methods: { code: { enabled: false, passwordless_enabled: true, mfa_enabled: true, config: { lifespan: '15m', max_submissions: 300 } } } } });
    expect(on.methods.code).toBe(true);
    expect(on.codeLogin).toMatchObject({ passwordless: true, mfa: false, lifespanMs: 15 * 60_000, maxSubmissions: 5 });
    expect(settingsOf({ selfservice: { methods: { code: { mfa_enabled: true, config: { max_submissions: 3 } } } } }).codeLogin).toMatchObject({ mfa: true, maxSubmissions: 3 });
  });

  it('offers security keys only as a second factor', () => {
    expect(settingsOf({ selfservice: { methods: { webauthn: { enabled: true } } } }).methods.webauthn).toBe(true);
    expect(settingsOf({ selfservice: { methods: { webauthn: { enabled: true, config: { passwordless: true } } } } }).methods.webauthn).toBe(false);
  });

  it("returns after a flow to the method's URL, the flow's, then the project's default", () => {
    const settings = settingsOf({
      selfservice: {
        default_browser_return_url: 'https://app.example.com/',
        flows: { login: { after: { default_browser_return_url: 'https://app.example.com/home', password: { default_browser_return_url: 'https://app.example.com/pw' } } } },
      },
    });
    expect(returnUrlAfter(settings, 'login', 'password')).toBe('https://app.example.com/pw');
    expect(returnUrlAfter(settings, 'login', 'code')).toBe('https://app.example.com/home');
    expect(returnUrlAfter(settings, 'registration', 'password')).toBe('https://app.example.com/');
    expect(returnUrlAfter(settingsOf({}), 'login')).toBeNull();
  });
});

describe('an allowed return URL', () => {
  const allowed = ['https://app.example.com/welcome', 'https://*.example.org'];
  it.each([
    ['https://app.example.com/welcome', true],
    ['https://app.example.com/welcome/back?x=1', true],
    ['https://eu.example.org/anything', true],
    ['https://app.example.com/elsewhere', false],
    ['http://app.example.com/welcome', false],
    ['https://example.org.evil.com/', false],
    ['https://app.example.com.evil.com/welcome', false],
  ])('%s → %s', (url, expected) => {
    expect(isAllowedReturnUrl(new URL(url), allowed)).toBe(expected);
  });
});

describe('session settings', () => {
  it('read the cookie settings with Kratos\' defaults, keeping the tenant\'s name for one that is no cookie name', () => {
    expect(sessionCookieSettingsOf({})).toEqual({ name: null, domain: null, sameSite: 'lax', persistent: true, path: null, secure: null });
    expect(sessionCookieSettingsOf({ session: { cookie: { name: 'app_session', domain: 'example.com', same_site: 'Strict', persistent: false, path: '/app', secure: 'true' } } })).toEqual({
      name: 'app_session',
      domain: 'example.com',
      sameSite: 'strict',
      persistent: false,
      path: '/app',
      secure: true,
    });
    expect(sessionCookieSettingsOf({ session: { cookie: { name: 'a b;c', same_site: 'None' } } })).toMatchObject({ name: null, sameSite: 'none' });
  });

  it("read the cookie's secure flag as Kratos' string or a boolean, and keep the tenant's path for one that is no cookie path", () => {
    expect([false, 'false', true, 'yes', ''].map((secure) => sessionCookieSettingsOf({ session: { cookie: { secure } } }).secure)).toEqual([false, false, true, null, null]);
    expect(['/', '/a/b', 'app', '/a;b', '/a b', ''].map((path) => sessionCookieSettingsOf({ session: { cookie: { path } } }).path)).toEqual(['/', '/a/b', null, null, null, null]);
  });

  it('read earliest_possible_extend as a duration, unset when it is none', () => {
    expect(settingsOf({ session: { earliest_possible_extend: '1h' } }).earliestPossibleExtendMs).toBe(60 * 60_000);
    expect(settingsOf({}).earliestPossibleExtendMs).toBeNull();
  });

  it('return after sign-out to the logout URL, else the default', () => {
    const settings = settingsOf({ selfservice: { default_browser_return_url: 'https://app.example.com/', flows: { logout: { after: { default_browser_return_url: 'https://app.example.com/bye' } } } } });
    expect(returnUrlAfter(settings, 'logout')).toBe('https://app.example.com/bye');
    expect(returnUrlAfter(settingsOf({ selfservice: { default_browser_return_url: 'https://app.example.com/' } }), 'logout')).toBe('https://app.example.com/');
  });
});

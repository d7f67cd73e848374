import { Configuration, IdentityApi, OAuth2Api } from '@ory/client';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { newUser, projectWithKey, uniqueEmail, type TestProject, type TestUser } from '../test-support/admin-api';
import { newUser as anotherUser, startTestStack } from '../test-support/control-plane';
import { latestCode } from '../test-support/self-service';

// A project's hosted pages, driven as a browser without JavaScript drives them: GET a page, read its form,
// POST the form where its action says, follow the redirects with the cookies it was given.

const REDIRECT = 'http://127.0.0.1:1/callback';
let stack: LocalStack;
let owner: TestUser;
let project: TestProject;

interface Form {
  action: string;
  method: string;
  fields: Array<[string, string]>;
  html: string;
}

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
const attr = (tag: string, name: string) => {
  const m = tag.match(new RegExp(`\\s${name}="([^"]*)"`));
  return m ? decode(m[1] ?? '') : undefined;
};

/** The forms of a page with the values a browser would send (hidden and prefilled inputs, checked boxes). */
function formsOf(html: string): Form[] {
  return [...html.matchAll(/<form([^>]*)>([\s\S]*?)<\/form>/g)].map(([, open = '', inner = '']) => ({
    action: attr(open, 'action') ?? '',
    method: (attr(open, 'method') ?? 'GET').toUpperCase(),
    html: inner,
    fields: [...inner.matchAll(/<input([^>]*)>/g)]
      .map(([, tag = '']) => tag)
      .filter((tag) => attr(tag, 'name') && (!/type="checkbox"/.test(tag) || /\schecked/.test(tag)))
      .map((tag) => [attr(tag, 'name') ?? '', attr(tag, 'value') ?? ''] as [string, string]),
  }));
}

/** A cookie-keeping browser that follows redirects until it leaves the stack or lands on a page. */
function browser(headers: Record<string, string> = {}) {
  const jar = new Map<string, string>();
  const send = async (url: string, init: { method?: string; form?: URLSearchParams } = {}) => {
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        ...headers,
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(init.form ? { body: init.form.toString() } : {}),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const value = pair.slice(pair.indexOf('=') + 1);
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') jar.delete(pair.slice(0, pair.indexOf('=')));
      else jar.set(pair.slice(0, pair.indexOf('=')), value);
    }
    return res;
  };
  /** Follows redirects within the stack; answers the page reached (or the redirect that leaves the stack). */
  const go = async (url: string, init: { method?: string; form?: URLSearchParams } = {}) => {
    let res = await send(url, init);
    let at = url;
    for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 12; hops++) {
      const next = new URL(res.headers.get('location')!, at).href;
      if (!next.startsWith(stack.url)) return { url: next, status: res.status, html: '' };
      at = next;
      res = await send(next);
    }
    return { url: at, status: res.status, html: await res.text(), language: res.headers.get('content-language') };
  };
  /** Submits `form` with `values` over the defaults; `button` is the name=value of the submit button pressed. */
  const submit = (form: Form, values: Record<string, string>, button?: [string, string]) => {
    const body = new URLSearchParams();
    const fields = form.fields.filter(([k]) => !(k in values));
    for (const [k, v] of fields) body.append(k, v);
    for (const [k, v] of Object.entries(values)) body.append(k, v);
    if (button) body.append(button[0], button[1]);
    return go(form.action, { method: form.method, form: body });
  };
  return { go, submit, jar };
}

const buttonOf = (form: Form, name: string): [string, string] => {
  const tag = [...form.html.matchAll(/<button([^>]*)>/g)].map(([, t = '']) => t).find((t) => attr(t, 'name') === name);
  return [name, attr(tag ?? '', 'value') ?? ''];
};

const signUp = async (b: ReturnType<typeof browser>, email: string, password: string, start = `${project.base}/ui/registration`) => {
  const page = await b.go(start);
  // Started from the page or from the flow's browser endpoint (a login page's sign-up link), it lands on the page.
  const base = start.replace(/\/(ui\/registration|self-service\/registration\/browser)(\?.*)?$/, '');
  expect(page.url).toMatch(new RegExp(`^${base}/ui/registration\\?flow=`));
  const [form] = formsOf(page.html);
  return b.submit(form!, { 'traits.email': email, 'traits.name': 'Hosted Person', password }, buttonOf(form!, 'method'));
};

beforeAll(async () => {
  stack = await startTestStack();
  owner = await newUser(stack, 'Owner');
  project = await projectWithKey(stack, owner, 'Hosted');
});

afterAll(async () => {
  await stack?.close();
});

describe("a project's hosted pages", () => {
  it('sign a new end user up, verify the address and recover the account, without script', async () => {
    const b = browser();
    const email = uniqueEmail('hosted');
    const home = await signUp(b, email, 'a-long-and-unusual-passphrase-42');
    expect(home.url).toBe(`${project.base}/ui/`);
    expect(home.html).toContain(email);
    // The new end user is one of the project's identities.
    const identities = new IdentityApi(new Configuration({ basePath: project.base, accessToken: project.key }));
    const { data: found } = await identities.listIdentities({ credentialsIdentifier: email });
    expect(found).toHaveLength(1);
    expect(found[0]!.verifiable_addresses?.[0]).toMatchObject({ value: email, verified: false });

    // Verify: ask for a code on the verification page, enter the mailed code.
    const verification = await b.go(`${project.base}/ui/verification`);
    const [ask] = formsOf(verification.html);
    const sent = await b.submit(ask!, { email }, buttonOf(ask!, 'method'));
    expect(sent.html).toContain('verification code has been sent');
    const { code } = await latestCode(stack.url, email, project.slug);
    const [enter] = formsOf(sent.html);
    const verified = await b.submit(enter!, { code }, ['method', 'code']);
    expect(verified.html).toContain('You successfully verified your email address.');
    expect((await identities.getIdentity({ id: found[0]!.id })).data.verifiable_addresses?.[0]?.verified).toBe(true);

    // Recover from another browser: the mailed code leads to the settings page, where a new password is set.
    const other = browser();
    const recovery = await other.go(`${project.base}/ui/recovery`);
    expect(recovery.url).toMatch(/\/ui\/recovery\?flow=/);
    const [askRecovery] = formsOf(recovery.html);
    const recoverySent = await other.submit(askRecovery!, { email }, buttonOf(askRecovery!, 'method'));
    const { code: recoveryCode } = await latestCode(stack.url, email, project.slug);
    const [enterRecovery] = formsOf(recoverySent.html);
    const settings = await other.submit(enterRecovery!, { code: recoveryCode }, ['method', 'code']);
    expect(settings.url).toMatch(/\/ui\/settings\?flow=/);
    const passwordForm = formsOf(settings.html).find((f) => f.html.includes('name="password"'))!;
    const saved = await other.submit(passwordForm, { password: 'another-long-passphrase-77' }, ['method', 'password']);
    expect(saved.status).toBe(200);

    // The new password signs in on the hosted login page.
    const third = browser();
    const login = await third.go(`${project.base}/ui/login`);
    const [loginForm] = formsOf(login.html);
    const signedIn = await third.submit(loginForm!, { identifier: email, password: 'another-long-passphrase-77' }, ['method', 'password']);
    expect(signedIn.url).toBe(`${project.base}/ui/`);
  });

  it('shows a wrong password as the flow says, and speaks German when the project respects the browser', async () => {
    const english = browser({ 'accept-language': 'de-DE,de;q=0.9' });
    const page = await english.go(`${project.base}/ui/login`);
    expect(page.html).toContain('<html lang="en"');
    const [form] = formsOf(page.html);
    const refused = await english.submit(form!, { identifier: 'nobody@example.com', password: 'wrong-password-123' }, ['method', 'password']);
    expect(refused.html).toContain('The provided credentials are invalid');
    expect(refused.html).toContain('role="alert"');

    await owner.projects.patchProject({
      projectId: project.id,
      jsonPatch: [{ op: 'add', path: '/services/account_experience', value: { config: { locale_behavior: 'respect_accept_language', default_locale: 'en' } } }],
    });
    const german = await english.go(`${project.base}/ui/login`);
    expect(german.html).toContain('<html lang="de"');
    expect(german.language).toBe('de');
    expect(german.html).toContain('Anmelden');
    const [deForm] = formsOf(german.html);
    const deRefused = await english.submit(deForm!, { identifier: 'nobody@example.com', password: 'wrong-password-123' }, ['method', 'password']);
    expect(deRefused.html).toContain('Die Anmeldedaten sind ungültig');
    // English where the browser asks for it; the default where it asks for a language the project does not offer.
    expect((await browser({ 'accept-language': 'en' }).go(`${project.base}/ui/login`)).html).toContain('<html lang="en"');
    expect((await browser({ 'accept-language': 'fr' }).go(`${project.base}/ui/login`)).html).toContain('<html lang="en"');
    await owner.projects.patchProject({
      projectId: project.id,
      jsonPatch: [{ op: 'replace', path: '/services/account_experience/config/locale_behavior', value: 'force_default' }],
    });
    expect((await english.go(`${project.base}/ui/login`)).html).toContain('<html lang="en"');
    // Forced, the default is spoken whatever the browser asks for.
    await owner.projects.patchProject({
      projectId: project.id,
      jsonPatch: [{ op: 'replace', path: '/services/account_experience/config/default_locale', value: 'de' }],
    });
    expect((await browser({ 'accept-language': 'en' }).go(`${project.base}/ui/login`)).html).toContain('<html lang="de"');
    await owner.projects.patchProject({
      projectId: project.id,
      jsonPatch: [{ op: 'replace', path: '/services/account_experience/config/default_locale', value: 'en' }],
    });
  });

  it('signs an end user in with a one-time code sent by email, without script', async () => {
    const codes = await projectWithKey(stack, owner, 'Hosted codes');
    await owner.projects.patchProject({
      projectId: codes.id,
      jsonPatch: [{ op: 'add', path: '/services/identity/config/selfservice', value: { methods: { code: { passwordless_enabled: true } } } }],
    });
    const b = browser();
    const email = uniqueEmail('hosted-code');
    await signUp(b, email, 'a-long-and-unusual-passphrase-42', `${codes.base}/ui/registration`);
    const fresh = browser();
    const page = await fresh.go(`${codes.base}/ui/login`);
    const codeForm = formsOf(page.html).find((f) => f.html.includes('Send sign in code'))!;
    // The code form carries the identifier, as the password form does.
    expect(codeForm.html).toContain('name="identifier"');
    const sent = await fresh.submit(codeForm, { identifier: email }, ['method', 'code']);
    expect(sent.url).toMatch(new RegExp(`^${codes.base}/ui/login\\?flow=`));
    expect(sent.html).toContain('A code was sent to the address you provided.');
    const { code, message } = await latestCode(stack.url, email, codes.slug);
    expect(message.template_type).toBe('login_code_valid');
    const [enter] = formsOf(sent.html).filter((f) => f.html.includes('name="code"'));
    const home = await fresh.submit(enter!, { code }, ['method', 'code']);
    expect(home.url).toBe(`${codes.base}/ui/`);
    expect(home.html).toContain(email);
  });

  it('signs an end user up with a one-time code sent by email, without script', async () => {
    const codes = await projectWithKey(stack, owner, 'Hosted sign-up codes');
    await owner.projects.patchProject({
      projectId: codes.id,
      jsonPatch: [{ op: 'add', path: '/services/identity/config/selfservice', value: { methods: { code: { passwordless_enabled: true } } } }],
    });
    const b = browser();
    const email = uniqueEmail('hosted-sign-up-code');
    const page = await b.go(`${codes.base}/ui/registration`);
    const codeForm = formsOf(page.html).find((f) => f.html.includes('Send sign up code'))!;
    // The code form carries the traits, as the password form does.
    expect(codeForm.html).toContain('name="traits.email"');
    const sent = await b.submit(codeForm, { 'traits.email': email, 'traits.name': 'Coded Person' }, ['method', 'code']);
    expect(sent.url).toMatch(new RegExp(`^${codes.base}/ui/registration\\?flow=`));
    expect(sent.html).toContain('A code has been sent to the address(es) you provided.');
    const { code, message } = await latestCode(stack.url, email, codes.slug);
    expect(message.template_type).toBe('registration_code_valid');
    const [enter] = formsOf(sent.html).filter((f) => f.html.includes('name="code"'));
    // The traits travel hidden with the code.
    expect(enter!.html).toMatch(/type="hidden"[^>]*name="traits.email"|name="traits.email"[^>]*type="hidden"/);
    const home = await b.submit(enter!, { code }, ['method', 'code']);
    expect(home.url).toBe(`${codes.base}/ui/`);
    expect(home.html).toContain(email);
  });

  it("runs an OAuth2 authorization-code + PKCE sign-in through the project's hosted login and consent", async () => {
    const oauth2 = new OAuth2Api(new Configuration({ basePath: project.base, accessToken: project.key }));
    const { data: client } = await oauth2.createOAuth2Client({
      oAuth2Client: { client_name: 'Photo Book', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], scope: 'openid offline_access email' },
    });
    const config = await oidc.discovery(new URL(project.base), client.client_id!, { redirect_uris: [REDIRECT] }, oidc.ClientSecretBasic(client.client_secret!), {
      execute: [oidc.allowInsecureRequests],
    });
    const authorize = async (state: string) => {
      const verifier = oidc.randomPKCECodeVerifier();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: REDIRECT,
        scope: 'openid offline_access email',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        prompt: 'consent',
        state,
      });
      return { url: url.href, verifier };
    };

    // A new end user signs up from the login page the client's request leads to.
    const b = browser();
    const email = uniqueEmail('rp');
    const first = await authorize('one');
    const login = await b.go(first.url);
    expect(login.url).toMatch(new RegExp(`^${project.base}/ui/login\\?flow=`));
    expect(login.html).toContain('Sign in to continue to Photo Book.');
    const signUpLink = login.html.match(/href="([^"]*registration[^"]*)"/)?.[1];
    expect(signUpLink).toBeTruthy();
    const consent = await signUp(b, email, 'a-long-and-unusual-passphrase-42', decode(signUpLink!));
    expect(consent.url).toMatch(new RegExp(`^${project.base}/ui/consent\\?consent_challenge=`));
    expect(consent.html).toContain('Photo Book wants to access your account.');
    expect(consent.html).toContain('Your email address');
    const [consentForm] = formsOf(consent.html);
    const callback = await b.submit(consentForm!, {}, ['action', 'accept']);
    expect(callback.url.startsWith(REDIRECT)).toBe(true);
    const tokens = await oidc.authorizationCodeGrant(config, new URL(callback.url), { pkceCodeVerifier: first.verifier, expectedState: 'one' });
    const identities = new IdentityApi(new Configuration({ basePath: project.base, accessToken: project.key }));
    const { data: found } = await identities.listIdentities({ credentialsIdentifier: email });
    expect(tokens.claims()).toMatchObject({ sub: found[0]!.id, email, iss: project.base });
    expect(tokens.refresh_token).toBeTruthy();
    expect(await oidc.fetchUserInfo(config, tokens.access_token, found[0]!.id)).toMatchObject({ email });

    // Signed in already, the next request goes straight to consent; denying it sends access_denied back.
    const second = await authorize('two');
    const again = await b.go(second.url);
    expect(again.url).toMatch(/\/ui\/consent\?consent_challenge=/);
    const denied = await b.submit(formsOf(again.html)[0]!, {}, ['action', 'reject']);
    const refusal = new URL(denied.url);
    expect(refusal.searchParams.get('error')).toBe('access_denied');
    expect(refusal.searchParams.get('state')).toBe('two');

    // A consent form sent without the browser's anti-CSRF cookie, or by someone else, changes nothing.
    const third = await authorize('three');
    const page = await b.go(third.url);
    const form = formsOf(page.html)[0]!;
    const stranger = browser();
    const forged = await stranger.submit(form, {}, ['action', 'accept']);
    expect(forged.status).toBe(403);
    const unknown = await b.go(`${project.base}/ui/consent?consent_challenge=not-a-challenge`);
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('could not be found');
  });

  it("wears the project's active branding theme, within the plan's branding_themes", async () => {
    const canvasOf = (html: string) => html.match(/:root\{[^}]*--canvas:([^;]+);/)?.[1];
    const before = await browser().go(`${project.base}/ui/login`);
    expect(canvasOf(before.html)).toBe('#f4f5f7');

    const branding = await owner.call('GET', `/projects/${project.id}/branding`);
    expect(branding.status).toBe(200);
    expect(branding.body.themes).toHaveLength(1);
    const created = await owner.call('POST', `/projects/${project.id}/branding/themes`, {
      name: 'Night',
      logo_url: 'https://cdn.example.com/logo.png',
      theme: { background_canvas_color: '#101820', primary_color: '#f2aa4c', foreground_on_accent_color: '#101820' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Night', background_canvas_color: '#101820', project_branding_id: branding.body.id });
    // Develop includes one theme besides the default; a second is refused by the quota.
    const second = await owner.call('POST', `/projects/${project.id}/branding/themes`, { name: 'Day' });
    expect(second.status).toBe(403);
    expect(second.body.error.reason).toMatch(/includes 1 branding theme/);
    expect((await owner.call('POST', `/projects/${project.id}/branding/themes`, { name: 'Bad', theme: { primary_color: 'red' } })).status).toBe(400);
    // Not the hosted pages' look until it is activated; then the next page load wears it.
    expect(canvasOf((await browser().go(`${project.base}/ui/login`)).html)).toBe('#f4f5f7');
    const activated = await owner.call('PUT', `/projects/${project.id}/branding/themes/${created.body.id}/active`);
    expect(activated.status).toBe(200);
    expect(activated.body.default_theme.id).toBe(created.body.id);
    const themed = await browser().go(`${project.base}/ui/login`);
    expect(canvasOf(themed.html)).toBe('#101820');
    // The preview the console frames: one answer, no cookie needed or set, the theme worn, a form that submits nothing.
    for (const kind of ['login', 'registration', 'recovery', 'verification']) {
      const preview = await fetch(`${project.base}/ui/${kind}?preview=true`, { redirect: 'manual' });
      expect(preview.status, kind).toBe(200);
      expect(preview.headers.getSetCookie(), kind).toEqual([]);
      const html = await preview.text();
      expect(canvasOf(html), kind).toBe('#101820');
      expect(html, kind).toContain('data-testid="hosted-preview-note"');
      expect(html.match(/<form (?!inert )/g) ?? [], kind).toHaveLength(0);
      expect(html, kind).toMatch(/<form inert /);
    }
    // Settings needs a signed-in user: no preview of it.
    expect((await fetch(`${project.base}/ui/settings?preview=true`, { redirect: 'manual' })).status).toBe(303);
    expect(themed.html).toContain('src="https://cdn.example.com/logo.png"');
    // Edited, the next load follows; deactivated, the default look is back.
    expect((await owner.call('PUT', `/projects/${project.id}/branding/themes/${created.body.id}`, { theme: { background_canvas_color: '#202830' } })).status).toBe(200);
    expect(canvasOf((await browser().go(`${project.base}/ui/login`)).html)).toBe('#202830');
    expect((await owner.call('DELETE', `/projects/${project.id}/branding/active`)).body.default_theme.id).toBe(branding.body.default_theme.id);
    expect(canvasOf((await browser().go(`${project.base}/ui/login`)).html)).toBe('#f4f5f7');
    // Someone else's project's themes are not theirs to read or change.
    const stranger = await anotherUser(stack, 'Stranger');
    expect([403, 404]).toContain((await stranger.call('GET', `/projects/${project.id}/branding`)).status);
    expect([403, 404]).toContain((await stranger.call('DELETE', `/projects/${project.id}/branding/themes/${created.body.id}`)).status);
    expect((await owner.call('DELETE', `/projects/${project.id}/branding/themes/${created.body.id}`)).status).toBe(204);
    expect((await owner.call('DELETE', `/projects/${project.id}/branding/themes/${branding.body.default_theme.id}`)).status).toBe(400);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { frontendApi, registerUser, signUpToProject } from '../test-support/users';
import { browserOf, csrfOf } from '../test-support/project-flows';

/*
 * The session settings of /authentication/sessions and /session-settings (Kratos' `session.cookie.*`,
 * `session.lifespan`, `session.earliest_possible_extend`), observed on a project's data plane: the cookie a
 * sign-in sets and reads back, and the admin API's extension of a session.
 */

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Session Owner' })).cookie);
});
afterAll(async () => {
  await stack?.close();
});

const HOUR_MS = 60 * 60_000;

/** The clock runs on while a call is answered: its answer lies between the times before and after it. */
function expectWithin(value: number, from: number, to: number): void {
  expect(value).toBeGreaterThanOrEqual(from);
  expect(value).toBeLessThanOrEqual(to);
}
const password = 'a-Long-and-unusual-passw0rd';

/** Signs `email` up in a browser; answers the Set-Cookie lines of the sign-up. */
async function browserSignUp(base: string, email: string): Promise<string[]> {
  const b = browserOf(base);
  const flow = b.keep(await b.api.createBrowserRegistrationFlow());
  const done = await b.api.updateRegistrationFlow({
    flow: flow.data.id,
    cookie: b.cookie(),
    updateRegistrationFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), password, traits: { email, name: 'Cookie' } },
  });
  return (done.headers['set-cookie'] as string[] | undefined) ?? [];
}

describe('session cookie settings', () => {
  it('name, domain, SameSite and persistence shape the cookie a sign-in sets, and the name is the one read back', async () => {
    const project = await owner.projects.create({ name: 'Cookie settings', environment: 'dev' });
    const base = `${stack.url}/project-api/${project.slug}`;
    await owner.projectConfig.setSessions({ projectId: project.id, cookie_name: 'shop_session', cookie_domain: 'shop.example.com', cookie_same_site: 'Strict', cookie_persistent: false });

    const lines = await browserSignUp(base, 'cookie-one@example.com');
    expect(lines.some((l) => l.startsWith('ory_session_'))).toBe(false);
    const line = lines.find((l) => l.startsWith('shop_session='));
    expect(line).toBeDefined();
    expect(line).toMatch(/; Domain=shop\.example\.com/i);
    expect(line).toMatch(/; SameSite=Strict/i);
    // Not persistent: a browser-session cookie, without Max-Age or Expires.
    expect(line).not.toMatch(/Expires=|Max-Age=/i);

    // The project's API reads the session from the cookie of that name, and no longer from its default one.
    const cookie = line!.split(';')[0]!;
    const token = cookie.slice('shop_session='.length);
    const api = frontendApi(base);
    expect((await api.toSession({ cookie }, { validateStatus: () => true })).status).toBe(200);
    const defaultName = `ory_session_${project.slug.replace(/[^A-Za-z0-9]/g, '')}`;
    expect((await api.toSession({ cookie: `${defaultName}=${token}` }, { validateStatus: () => true })).status).toBe(401);

    // Back to the defaults: a persistent Lax cookie of the default name, on the request's host.
    await owner.projectConfig.setSessions({ projectId: project.id, cookie_name: '', cookie_domain: '', cookie_same_site: 'Lax', cookie_persistent: true });
    const again = (await browserSignUp(base, 'cookie-two@example.com')).find((l) => l.startsWith(`${defaultName}=`));
    expect(again).toBeDefined();
    expect(again).toMatch(/; Expires=/i);
    expect(again).toMatch(/; SameSite=Lax/i);
    expect(again).not.toMatch(/; Domain=/i);
  });

  it('path and the secure flag shape the cookie a sign-in sets and a sign-out clears', async () => {
    const project = await owner.projects.create({ name: 'Cookie path', environment: 'dev' });
    const base = `${stack.url}/project-api/${project.slug}`;
    const name = `ory_session_${project.slug.replace(/[^A-Za-z0-9]/g, '')}`;
    const cookieLine = (lines: string[]) => lines.find((l) => l.startsWith(`${name}=`));

    // By default: the API's own path, and not secure, as this API is served over plain HTTP.
    const plain = cookieLine(await browserSignUp(base, 'path-default@example.com'));
    expect(plain).toMatch(new RegExp(`; Path=/project-api/${project.slug}(;|$)`, 'i'));
    expect(plain).not.toMatch(/; Secure/i);

    const saved = await owner.projectConfig.setSessions({ projectId: project.id, cookie_path: '/', cookie_secure: 'true' });
    expect(saved.sessions).toMatchObject({ cookie_path: '/', cookie_secure: 'true' });
    // Stored as Kratos' schema types it: a string.
    expect(((await owner.projects.configuration({ projectId: project.id })) as { services: { identity?: { config?: unknown } } }).services.identity?.config).toMatchObject({ session: { cookie: { path: '/', secure: 'true' } } });
    const b = browserOf(base);
    const flow = b.keep(await b.api.createBrowserRegistrationFlow());
    const done = b.keep(
      await b.api.updateRegistrationFlow({
        flow: flow.data.id,
        cookie: b.cookie(),
        updateRegistrationFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), password, traits: { email: 'path-root@example.com', name: 'Cookie' } },
      }),
    );
    const line = cookieLine((done.headers['set-cookie'] as string[] | undefined) ?? []);
    expect(line).toMatch(/; Path=\/(;|$)/i);
    expect(line).toMatch(/; Secure/i);
    // Signing out clears the cookie where it was set: the same path, the same flag.
    const logout = await b.api.createBrowserLogoutFlow({ cookie: b.cookie() });
    const signedOut = await fetch(logout.data.logout_url, { headers: { cookie: b.cookie() }, redirect: 'manual' });
    const cleared = signedOut.headers.getSetCookie().find((l) => l.startsWith(`${name}=`));
    expect(cleared).toMatch(/; Path=\/(;|$)/i);
    expect(cleared).toMatch(/; Secure/i);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/i);

    // Never secure, and a boolean in the config reads the same as Kratos' string.
    await owner.projectConfig.setSessions({ projectId: project.id, cookie_secure: 'false' });
    expect(cookieLine(await browserSignUp(base, 'path-insecure@example.com'))).not.toMatch(/; Secure/i);
    await owner.projects.patch({ projectId: project.id, patch: [{ op: 'replace', path: '/services/identity/config/session/cookie/secure', value: true }] });
    expect((await owner.projectConfig.get({ projectId: project.id })).sessions.cookie_secure).toBe('true');
    expect(cookieLine(await browserSignUp(base, 'path-boolean@example.com'))).toMatch(/; Secure/i);

    // A path that is no cookie path is refused, saying what to fix; emptied fields go back to the defaults.
    const refused = await owner.projectConfig.setSessions({ projectId: project.id, cookie_path: 'shop; Domain=evil.example' }).catch((e: unknown) => e as { code: string; message: string });
    expect(refused).toMatchObject({ code: 'BAD_REQUEST', message: expect.stringMatching(/cookie path starts with \//) });
    await owner.projectConfig.setSessions({ projectId: project.id, cookie_path: '', cookie_secure: '' });
    const back = cookieLine(await browserSignUp(base, 'path-back@example.com'));
    expect(back).toMatch(new RegExp(`; Path=/project-api/${project.slug}(;|$)`, 'i'));
    expect(back).not.toMatch(/; Secure/i);
  });
});

describe('session extension', () => {
  it('the admin extension gives the project’s lifespan from now, only once the expiry is within earliest_possible_extend', async () => {
    const project = await owner.projects.create({ name: 'Extend settings', environment: 'dev' });
    await owner.projectConfig.setSessions({ projectId: project.id, lifespan: '4h', earliest_possible_extend: '1h' });
    const user = await signUpToProject(stack.url, project.slug, 'extend@example.com');
    const before = await owner.sessions.get({ projectId: project.id, sessionId: user.sessionId });
    const issued = new Date(before.issued_at!).getTime();
    expect(new Date(before.expires_at!).getTime() - issued).toBe(4 * HOUR_MS);

    // Three hours and a half before expiry: too early, the session is answered unchanged.
    const early = await owner.sessions.extend({ projectId: project.id, sessionId: user.sessionId });
    expect(early.expires_at).toBe(before.expires_at);

    // Within the last hour it is extended to the lifespan from now.
    stack.stack.clock.advance(3.5 * HOUR_MS);
    const now = stack.stack.clock.now().getTime();
    const extended = await owner.sessions.extend({ projectId: project.id, sessionId: user.sessionId });
    expectWithin(new Date(extended.expires_at!).getTime(), now + 4 * HOUR_MS, stack.stack.clock.now().getTime() + 4 * HOUR_MS);

    // Without earliest_possible_extend (Kratos' default: the lifespan) any working session is extended.
    await owner.projectConfig.setSessions({ projectId: project.id, earliest_possible_extend: '' });
    stack.stack.clock.advance(HOUR_MS);
    const later = stack.stack.clock.now().getTime();
    const anyTime = await owner.sessions.extend({ projectId: project.id, sessionId: user.sessionId });
    expectWithin(new Date(anyTime.expires_at!).getTime(), later + 4 * HOUR_MS, stack.stack.clock.now().getTime() + 4 * HOUR_MS);
  });
});

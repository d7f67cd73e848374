import { randomUUID } from 'node:crypto';
import { Configuration, FrontendApi } from '@ory/client';

export interface TestUser {
  /** `Cookie` header value carrying the `ory_kratos_session` cookie. */
  cookie: string;
  identityId: string;
  email: string;
  password: string;
}

/** A tiny cookie jar: remembers `name=value` from Set-Cookie headers. */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  store(setCookie: string[] | string | undefined): void {
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const pair = line.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line);
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  get(name: string): string | undefined {
    return this.cookies.get(name);
  }

  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

export const frontendApi = (baseUrl: string) => new FrontendApi(new Configuration({ basePath: baseUrl }));

function csrfOf(nodes: { attributes: unknown }[]): string {
  for (const n of nodes) {
    const a = n.attributes as { name?: string; value?: unknown };
    if (a.name === 'csrf_token' && typeof a.value === 'string') return a.value;
  }
  throw new Error('flow has no csrf_token node');
}

function sessionCookie(jar: CookieJar): string {
  const token = jar.get('ory_kratos_session');
  if (!token) throw new Error('no ory_kratos_session cookie was set');
  return `ory_kratos_session=${token}`;
}

/** Registers a new user through the browser registration flow (JSON), returning its session cookie. */
export async function registerUser(
  baseUrl: string,
  input: { email?: string; password?: string; name?: string } = {},
): Promise<TestUser> {
  const email = input.email ?? `user-${randomUUID()}@example.com`;
  const password = input.password ?? 'correct-horse-battery-staple';
  const api = frontendApi(baseUrl);
  const jar = new CookieJar();
  const created = await api.createBrowserRegistrationFlow();
  jar.store(created.headers['set-cookie']);
  const res = await api.updateRegistrationFlow({
    flow: created.data.id,
    cookie: jar.header(),
    updateRegistrationFlowBody: {
      method: 'password',
      csrf_token: csrfOf(created.data.ui.nodes),
      password,
      traits: { email, name: input.name ?? 'Test User' },
    },
  });
  jar.store(res.headers['set-cookie']);
  return { cookie: sessionCookie(jar), identityId: res.data.identity.id, email, password };
}

/** Signs an existing user in through the browser login flow (JSON), returning a new session cookie. */
export async function loginUser(baseUrl: string, email: string, password: string): Promise<TestUser> {
  const api = frontendApi(baseUrl);
  const jar = new CookieJar();
  const created = await api.createBrowserLoginFlow();
  jar.store(created.headers['set-cookie']);
  const res = await api.updateLoginFlow({
    flow: created.data.id,
    cookie: jar.header(),
    updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(created.data.ui.nodes), identifier: email, password },
  });
  jar.store(res.headers['set-cookie']);
  return { cookie: sessionCookie(jar), identityId: res.data.session.identity?.id ?? '', email, password };
}

/** An end user of a project signing up through the project's own API flow (a native app): a real identity with a real session. */
export async function signUpToProject(stackUrl: string, slug: string, email: string, password = 'a-Long-and-unusual-passw0rd'): Promise<{ identityId: string; sessionId: string; token: string }> {
  const api = frontendApi(`${stackUrl}/project-api/${slug}`);
  const flow = await api.createNativeRegistrationFlow();
  const res = await api.updateRegistrationFlow({ flow: flow.data.id, updateRegistrationFlowBody: { method: 'password', password, traits: { email, name: email.split('@')[0] } } });
  return { identityId: res.data.identity.id, sessionId: res.data.session!.id, token: res.data.session_token! };
}

/** Signs a project's end user in again through its API flow: one more session. */
export async function signInToProject(stackUrl: string, slug: string, email: string, password = 'a-Long-and-unusual-passw0rd'): Promise<{ sessionId: string; token: string }> {
  const api = frontendApi(`${stackUrl}/project-api/${slug}`);
  const flow = await api.createNativeLoginFlow();
  const res = await api.updateLoginFlow({ flow: flow.data.id, updateLoginFlowBody: { method: 'password', identifier: email, password } });
  return { sessionId: res.data.session.id, token: res.data.session_token! };
}

/** Asks for a recovery code for `email` through a browser recovery flow (create, then submit); answers the submission's status. */
export async function requestRecoveryCode(baseUrl: string, email: string): Promise<number> {
  const api = frontendApi(baseUrl);
  const jar = new CookieJar();
  const created = await api.createBrowserRecoveryFlow();
  jar.store(created.headers['set-cookie']);
  const res = await api.updateRecoveryFlow(
    { flow: created.data.id, cookie: jar.header(), updateRecoveryFlowBody: { method: 'code', email, csrf_token: csrfOf(created.data.ui.nodes) } },
    { validateStatus: () => true },
  );
  return res.status;
}

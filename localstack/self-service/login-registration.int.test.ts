import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { loginUser, registerUser } from '../../server/test-support/users';
import { anyStatus, browser, csrfOf, startTestStack, TEST_UI_URL } from '../test-support/self-service';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const INVALID_CREDENTIALS =
  'The provided credentials are invalid, check for spelling mistakes in your password or username, email address, or phone number.';

describe('registration', () => {
  it('registers through the browser flow and signs the user in', async () => {
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserRegistrationFlow());
    expect(flow.data.type).toBe('browser');
    expect(flow.data.ui.action).toBe(`${stack.url}/self-service/registration?flow=${flow.data.id}`);
    const names = flow.data.ui.nodes.map((n) => (n.attributes as { name: string }).name);
    // The console's own tenant offers passkeys too: the script (no name), the trigger and the ceremony's fields.
    expect(names).toEqual(['csrf_token', 'traits.email', 'traits.name', 'password', 'method', undefined, 'passkey_register_trigger', 'passkey_register', 'passkey_create_data']);
    const email = `New.User-${Date.now()}@Example.com`;
    const res = b.keep(
      await b.api.updateRegistrationFlow({
        flow: flow.data.id,
        cookie: b.cookie(),
        updateRegistrationFlowBody: {
          method: 'password',
          csrf_token: csrfOf(flow.data),
          password: 'correct-horse-battery-staple',
          traits: { email, name: 'Ada' },
        },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.data.identity.traits).toEqual({ email, name: 'Ada' });
    expect(res.data.session?.identity?.id).toBe(res.data.identity.id);
    expect(res.data.continue_with?.map((c) => c.action)).toEqual(['show_verification_ui', 'redirect_browser_to']);
    const setCookie = (res.headers['set-cookie'] as string[]).find((c) => c.startsWith('ory_kratos_session='));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);
    expect(setCookie).not.toMatch(/Domain=/i);
    const who = await b.api.toSession({ cookie: b.cookie() });
    expect(who.data.identity?.traits.email).toBe(email);
    expect(who.data.authenticator_assurance_level).toBe('aal1');
    expect(who.data.authentication_methods?.[0]?.method).toBe('password');
    expect(who.data.identity?.verifiable_addresses?.[0]?.value).toBe(email.toLowerCase());
  });

  it('refuses a duplicate email with Ory message 4000007', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserRegistrationFlow());
    const res = await b.api.updateRegistrationFlow(
      {
        flow: flow.data.id,
        cookie: b.cookie(),
        updateRegistrationFlowBody: {
          method: 'password',
          csrf_token: csrfOf(flow.data),
          password: 'another-long-secret-phrase',
          traits: { email: user.email.toUpperCase(), name: 'Twin' },
        },
      },
      anyStatus,
    );
    expect(res.status).toBe(400);
    const flowBody = res.data as unknown as { ui: { messages: { id: number; type: string; text: string }[] } };
    expect(flowBody.ui.messages).toEqual([
      { id: 4000007, type: 'error', text: 'An account with the same identifier (email, phone, username, ...) exists already.' },
    ]);
  });

  it('puts the password policy message on the password node', async () => {
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserRegistrationFlow());
    const submit = async (password: string, email: string) =>
      b.api.updateRegistrationFlow(
        {
          flow: flow.data.id,
          cookie: b.cookie(),
          updateRegistrationFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), password, traits: { email } },
        },
        anyStatus,
      );
    const short = await submit('abc12', 'short@example.com');
    expect(short.status).toBe(400);
    const node = (short.data as unknown as { ui: { nodes: { attributes: { name: string; value?: string }; messages: unknown[] }[] } }).ui.nodes;
    expect(node.find((n) => n.attributes.name === 'password')?.messages).toEqual([
      {
        id: 4000032,
        type: 'error',
        text: 'The password must be at least 8 characters long, but got 5.',
        context: { min_length: 8, actual_length: 5 },
      },
    ]);
    expect(node.find((n) => n.attributes.name === 'traits.email')?.attributes.value).toBe('short@example.com');
    const similar = await submit('similar@example.com1', 'similar@example.com');
    const nodes2 = (similar.data as unknown as { ui: { nodes: { attributes: { name: string }; messages: { id: number }[] }[] } }).ui.nodes;
    expect(nodes2.find((n) => n.attributes.name === 'password')?.messages[0]?.id).toBe(4000031);
    const badEmail = await submit('correct-horse-battery', 'not-an-email');
    const nodes3 = (badEmail.data as unknown as { ui: { nodes: { attributes: { name: string }; messages: { id: number }[] }[] } }).ui.nodes;
    expect(nodes3.find((n) => n.attributes.name === 'traits.email')?.messages[0]?.id).toBe(4000040);
  });

  it('answers a non-JSON browser request with 303 to the console UI', async () => {
    const res = await fetch(`${stack.url}/self-service/registration/browser`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(new RegExp(`^${TEST_UI_URL}/registration\\?flow=[0-9a-f-]{36}$`));
  });
});

describe('login', () => {
  it('signs in with the right password and refuses a wrong one', async () => {
    const user = await registerUser(stack.url, { name: 'Grace' });
    const ok = await loginUser(stack.url, user.email, user.password);
    expect(ok.identityId).toBe(user.identityId);

    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserLoginFlow());
    expect(flow.data.ui.nodes.map((n) => n.group)).toEqual(['default', 'default', 'password', 'password', 'webauthn', 'passkey', 'passkey', 'passkey']);
    const res = await b.api.updateLoginFlow(
      {
        flow: flow.data.id,
        cookie: b.cookie(),
        updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), identifier: user.email, password: 'wrong-password-123' },
      },
      anyStatus,
    );
    expect(res.status).toBe(400);
    const body = res.data as unknown as { id: string; ui: { messages: unknown[]; nodes: { attributes: { name: string; value?: unknown } }[] } };
    expect(body.id).toBe(flow.data.id);
    expect(body.ui.messages).toEqual([{ id: 4000006, type: 'error', text: INVALID_CREDENTIALS }]);
    expect(body.ui.nodes.find((n) => n.attributes.name === 'identifier')?.attributes.value).toBe(user.email);
    expect(body.ui.nodes.find((n) => n.attributes.name === 'password')?.attributes.value).toBeUndefined();

    const unknown = await b.api.updateLoginFlow(
      {
        flow: flow.data.id,
        cookie: b.cookie(),
        updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), identifier: 'nobody@example.com', password: 'whatever-123' },
      },
      anyStatus,
    );
    expect(unknown.status).toBe(400);
    expect((unknown.data as unknown as { ui: { messages: { id: number }[] } }).ui.messages[0]?.id).toBe(4000006);
  });

  it('rejects a submit whose csrf_token does not match the CSRF cookie', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserLoginFlow());
    const body = { method: 'password' as const, identifier: user.email, password: user.password };
    const wrong = await b.api.updateLoginFlow(
      { flow: flow.data.id, cookie: b.cookie(), updateLoginFlowBody: { ...body, csrf_token: 'x'.repeat(43) } },
      anyStatus,
    );
    expect(wrong.status).toBe(403);
    expect((wrong.data as unknown as { error: { id: string } }).error.id).toBe('security_csrf_violation');
    const noCookie = await b.api.updateLoginFlow(
      { flow: flow.data.id, updateLoginFlowBody: { ...body, csrf_token: csrfOf(flow.data) } },
      anyStatus,
    );
    expect(noCookie.status).toBe(403);
  });

  it('answers 404 errorGeneric for an unknown flow', async () => {
    const b = browser(stack.url);
    const res = await b.api.getLoginFlow({ id: '00000000-0000-4000-8000-000000000000' }, anyStatus);
    expect(res.status).toBe(404);
    expect((res.data as unknown as { error: { code: number; message: string } }).error).toMatchObject({
      code: 404,
      status: 'Not Found',
    });
    const notUuid = await b.api.getRegistrationFlow({ id: 'nope' }, anyStatus);
    expect(notUuid.status).toBe(404);
  });

  it('refuses a return_to of another origin', async () => {
    const b = browser(stack.url);
    const res = await b.api.createBrowserLoginFlow({ returnTo: 'https://evil.example/steal' }, anyStatus);
    expect(res.status).toBe(400);
    expect((res.data as unknown as { error: unknown }).error).toMatchObject({
      id: 'self_service_flow_return_to_forbidden',
      reason: 'Requested return_to URL "https://evil.example/steal" is not allowed.',
    });
    const same = await b.api.createBrowserLoginFlow({ returnTo: `${TEST_UI_URL}/projects` });
    expect(same.data.return_to).toBe(`${TEST_UI_URL}/projects`);
  });

  it('builds ui.action from X-Forwarded-Proto/Host/Prefix', async () => {
    const res = await fetch(`${stack.url}/self-service/login/browser`, {
      headers: {
        accept: 'application/json',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'console.example.com',
        'x-forwarded-prefix': '/.ory',
      },
    });
    const flow = (await res.json()) as { id: string; ui: { action: string } };
    expect(flow.ui.action).toBe(`https://console.example.com/.ory/self-service/login?flow=${flow.id}`);
  });
});

describe('session and logout', () => {
  it('answers whoami 401 without a session', async () => {
    const b = browser(stack.url);
    const res = await b.api.toSession({}, anyStatus);
    expect(res.status).toBe(401);
    expect((res.data as unknown as { error: { code: number } }).error.code).toBe(401);
  });

  it('logs out through logout_url and ends the session', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    const logout = await b.api.createBrowserLogoutFlow({ cookie: user.cookie });
    expect(logout.data.logout_url).toContain('/self-service/logout?token=');
    const res = await b.api.updateLogoutFlow({ token: logout.data.logout_token, cookie: user.cookie }, anyStatus);
    expect(res.status).toBe(204);
    expect(String(res.headers['set-cookie'])).toMatch(/ory_kratos_session=;/);
    const who = await b.api.toSession({ cookie: user.cookie }, anyStatus);
    expect(who.status).toBe(401);
  });

  it('answers whoami for a session token in X-Session-Token or Authorization: Bearer, 401 for a wrong one', async () => {
    const user = await registerUser(stack.url);
    const token = user.cookie.replace(/^ory_kratos_session=/, '');
    const good: Record<string, string>[] = [{ 'x-session-token': token }, { authorization: `Bearer ${token}` }, { authorization: `bearer ${token}` }];
    for (const headers of good) {
      const res = await fetch(`${stack.url}/sessions/whoami`, { headers });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { identity: { id: string } }).identity.id).toBe(user.identityId);
    }
    const wrong: Record<string, string>[] = [{ 'x-session-token': `${token}x` }, { authorization: `Bearer ${token}x` }, { authorization: token }];
    for (const headers of wrong) {
      const res = await fetch(`${stack.url}/sessions/whoami`, { headers });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { id: string } }).error.id).toBe('session_inactive');
    }
  });

  it('signs a native app in through the API login flow and answers whoami for its session token', async () => {
    const user = await registerUser(stack.url);
    const created = await fetch(`${stack.url}/self-service/login/api`);
    expect(created.status).toBe(200);
    expect(created.headers.getSetCookie()).toEqual([]);
    const flow = (await created.json()) as { id: string; type: string; ui: { nodes: { attributes: { name?: string } }[] } };
    expect(flow.type).toBe('api');
    expect(flow.ui.nodes.map((n) => n.attributes.name)).not.toContain('csrf_token');
    const submitted = await fetch(`${stack.url}/self-service/login?flow=${flow.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'password', identifier: user.email, password: user.password }),
    });
    expect(submitted.status).toBe(200);
    expect(submitted.headers.getSetCookie()).toEqual([]);
    const body = (await submitted.json()) as { session_token: string; session: { identity: { id: string } } };
    expect(body.session.identity.id).toBe(user.identityId);
    const tokenHeaders: Record<string, string>[] = [{ 'x-session-token': body.session_token }, { authorization: `Bearer ${body.session_token}` }];
    for (const headers of tokenHeaders) {
      const who = await fetch(`${stack.url}/sessions/whoami`, { headers });
      expect(who.status).toBe(200);
    }
    const again = await fetch(`${stack.url}/self-service/login/api`, { headers: { 'x-session-token': body.session_token } });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: { id: string } }).error.id).toBe('session_already_available');
  });

  it('does not log out with the logout token alone, nor with a token of another session', async () => {
    const user = await registerUser(stack.url);
    const other = await registerUser(stack.url);
    const b = browser(stack.url);
    const logout = await b.api.createBrowserLogoutFlow({ cookie: user.cookie });
    const alone = await b.api.updateLogoutFlow({ token: logout.data.logout_token }, anyStatus);
    expect(alone.status).toBe(401);
    expect((alone.data as unknown as { error: { id: string } }).error.id).toBe('session_inactive');
    const mismatched = await b.api.updateLogoutFlow({ token: logout.data.logout_token, cookie: other.cookie }, anyStatus);
    expect(mismatched.status).toBe(403);
    expect((mismatched.data as unknown as { error: { reason: string } }).error.reason).toBe(
      'Unable to log out because the logout token in the URL query does not match the session cookie.',
    );
    expect((await b.api.toSession({ cookie: user.cookie }, anyStatus)).status).toBe(200);
    expect((await b.api.toSession({ cookie: other.cookie }, anyStatus)).status).toBe(200);
    const missing = await fetch(`${stack.url}/self-service/logout`, { headers: { accept: 'application/json', cookie: user.cookie } });
    expect(missing.status).toBe(400);
  });

  it('redirects a browser logout to the console login page', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    const logout = await b.api.createBrowserLogoutFlow({ cookie: user.cookie });
    const res = await fetch(logout.data.logout_url, { redirect: 'manual', headers: { cookie: user.cookie } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`${TEST_UI_URL}/login`);
  });
});

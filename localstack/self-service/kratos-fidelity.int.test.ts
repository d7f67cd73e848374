import { UiNodeInputAttributesAutocompleteEnum } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { registerUser } from '../../server/test-support/users';
import { anyStatus, browser, csrfOf, startTestStack, TEST_UI_URL } from '../test-support/self-service';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

type ErrorAnswer = { error: { id?: string; code: number; reason?: string; message: string; details?: { reject_reason?: string } } };
type FlowAnswer = { ui: { messages?: { id: number; text: string; type: string }[]; nodes: { attributes: { name?: string; autocomplete?: string }; messages: { id: number; text: string; context?: unknown }[] }[] } };

const json = { accept: 'application/json' };

describe('reading a browser flow needs its anti-CSRF cookie', () => {
  it('answers 403 security_csrf_violation without the cookie or with another one', async () => {
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserLoginFlow());
    const own = await fetch(`${stack.url}/self-service/login/flows?id=${flow.data.id}`, { headers: { ...json, cookie: b.cookie() } });
    expect(own.status).toBe(200);

    const none = await fetch(`${stack.url}/self-service/login/flows?id=${flow.data.id}`, { headers: json });
    expect(none.status).toBe(403);
    const noneBody = (await none.json()) as ErrorAnswer;
    expect(noneBody.error.id).toBe('security_csrf_violation');
    expect(noneBody.error.details?.reject_reason).toBe('The HTTP Cookie Header is empty or not set.');

    const other = browser(stack.url);
    other.keep(await other.api.createBrowserLoginFlow());
    const foreign = await fetch(`${stack.url}/self-service/login/flows?id=${flow.data.id}`, { headers: { ...json, cookie: other.cookie() } });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as ErrorAnswer).error.id).toBe('security_csrf_violation');

    const unrelated = await fetch(`${stack.url}/self-service/registration/flows?id=${flow.data.id}`, { headers: { ...json, cookie: 'theme=dark' } });
    expect(unrelated.status).toBe(404);
    const reg = b.keep(await b.api.createBrowserRegistrationFlow());
    const cookieMissing = await fetch(`${stack.url}/self-service/registration/flows?id=${reg.data.id}`, { headers: { ...json, cookie: 'theme=dark' } });
    expect(cookieMissing.status).toBe(403);
    expect(((await cookieMissing.json()) as ErrorAnswer).error.details?.reject_reason).toBe(
      'The HTTP Cookie Header was set but did not include the anti-CSRF cookie.',
    );
  });
});

describe('a signed-in browser', () => {
  it('cannot submit registration: 400 session_already_available and no new identity', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserRegistrationFlow());
    b.jar.store([`${user.cookie}; Path=/`]);
    const email = `second-${Date.now()}@example.com`;
    const res = await b.api.updateRegistrationFlow(
      {
        flow: flow.data.id,
        cookie: b.cookie(),
        updateRegistrationFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), password: 'another-long-passphrase', traits: { email } },
      },
      anyStatus,
    );
    expect(res.status).toBe(400);
    const body = res.data as unknown as ErrorAnswer;
    expect(body.error).toMatchObject({
      id: 'session_already_available',
      reason: 'A valid session was detected and thus registration is not possible.',
    });
    const who = await b.api.toSession({ cookie: b.cookie() });
    expect(who.data.identity?.id).toBe(user.identityId);
    const login = browser(stack.url);
    const attempt = login.keep(await login.api.createBrowserLoginFlow());
    const signIn = await login.api.updateLoginFlow(
      {
        flow: attempt.data.id,
        cookie: login.cookie(),
        updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(attempt.data), identifier: email, password: 'another-long-passphrase' },
      },
      anyStatus,
    );
    expect(signIn.status).toBe(400);

    const form = await fetch(`${stack.url}/self-service/registration?flow=${flow.data.id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: b.cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf_token: csrfOf(flow.data), method: 'password', password: 'another-long-passphrase', 'traits.email': email }).toString(),
    });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe(`${TEST_UI_URL}/`);
  });

  it('cannot re-submit a completed login flow for a new session', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserLoginFlow());
    const submit = () =>
      b.api.updateLoginFlow(
        {
          flow: flow.data.id,
          cookie: b.cookie(),
          updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), identifier: user.email, password: user.password },
        },
        anyStatus,
      );
    const first = b.keep(await submit());
    expect(first.status).toBe(200);
    const again = await submit();
    expect(again.status).toBe(400);
    expect((again.data as unknown as ErrorAnswer).error).toMatchObject({ id: 'session_already_available', message: 'you are already logged in' });
    expect(again.headers['set-cookie']).toBeUndefined();
  });

  it('cannot start recovery', async () => {
    const user = await registerUser(stack.url);
    const res = await fetch(`${stack.url}/self-service/recovery/browser`, { headers: { ...json, cookie: user.cookie } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorAnswer).error).toMatchObject({
      id: 'session_already_available',
      reason: 'A valid session was detected and thus recovery is not possible.',
    });
    const page = await fetch(`${stack.url}/self-service/recovery/browser`, { redirect: 'manual', headers: { cookie: user.cookie } });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`${TEST_UI_URL}/`);
  });
});

describe('messages and nodes as Kratos has them', () => {
  it('offers only autocomplete values of the UiNodeInputAttributes enum', async () => {
    const allowed = new Set<string>(Object.values(UiNodeInputAttributesAutocompleteEnum));
    const b = browser(stack.url);
    const flows = [
      b.keep(await b.api.createBrowserRegistrationFlow()).data,
      b.keep(await b.api.createBrowserLoginFlow()).data,
      b.keep(await b.api.createBrowserRecoveryFlow()).data,
    ] as unknown as FlowAnswer[];
    const values = flows.flatMap((f) => f.ui.nodes.map((n) => n.attributes.autocomplete).filter((v) => v !== undefined));
    expect(values.length).toBeGreaterThan(0);
    for (const value of values) expect(allowed.has(String(value)), String(value)).toBe(true);
  });

  it('uses the "no strategy" message of each flow', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    b.jar.store([`${user.cookie}; Path=/`]);
    const settings = b.keep(await b.api.createBrowserSettingsFlow({ cookie: b.cookie() }));
    const settingsRes = await b.api.updateSettingsFlow(
      // A method the console's own sign-in does not offer (it offers the authenticator app and backup codes).
      { flow: settings.data.id, cookie: b.cookie(), updateSettingsFlowBody: { method: 'webauthn', csrf_token: csrfOf(settings.data) } as never },
      anyStatus,
    );
    expect((settingsRes.data as unknown as FlowAnswer).ui.messages?.[0]).toEqual({
      id: 4010004,
      type: 'error',
      text: 'Could not find a strategy to update your settings. Did you fill out the form correctly?',
    });

    const anon = browser(stack.url);
    const reg = anon.keep(await anon.api.createBrowserRegistrationFlow());
    const regRes = await anon.api.updateRegistrationFlow(
      { flow: reg.data.id, cookie: anon.cookie(), updateRegistrationFlowBody: { method: 'oidc', csrf_token: csrfOf(reg.data), traits: { email: 'x@example.com' } } as never },
      anyStatus,
    );
    expect((regRes.data as unknown as FlowAnswer).ui.messages?.[0]).toEqual({
      id: 4010003,
      type: 'error',
      text: 'Could not find a strategy to sign you up with. Did you fill out the form correctly?',
    });

    const rec = anon.keep(await anon.api.createBrowserRecoveryFlow());
    const recRes = await anon.api.updateRecoveryFlow(
      { flow: rec.data.id, cookie: anon.cookie(), updateRecoveryFlowBody: { method: 'link', email: user.email, csrf_token: csrfOf(rec.data) } },
      anyStatus,
    );
    expect((recRes.data as unknown as FlowAnswer).ui.messages?.[0]).toEqual({
      id: 4010005,
      type: 'error',
      text: 'Could not find a strategy to recover your account with. Did you fill out the form correctly?',
    });

    const ver = anon.keep(await anon.api.createBrowserVerificationFlow());
    const verRes = await anon.api.updateVerificationFlow(
      { flow: ver.data.id, cookie: anon.cookie(), updateVerificationFlowBody: { method: 'link', email: user.email, csrf_token: csrfOf(ver.data) } },
      anyStatus,
    );
    expect((verRes.data as unknown as FlowAnswer).ui.messages?.[0]).toEqual({
      id: 4010006,
      type: 'error',
      text: 'Could not find a strategy to verify your account with. Did you fill out the form correctly?',
    });
  });

  it('marks an invalid email with 4000040 "Enter a valid email address"', async () => {
    const b = browser(stack.url);
    const rec = b.keep(await b.api.createBrowserRecoveryFlow());
    const res = await b.api.updateRecoveryFlow(
      { flow: rec.data.id, cookie: b.cookie(), updateRecoveryFlowBody: { method: 'code', email: 'not-an-email', csrf_token: csrfOf(rec.data) } },
      anyStatus,
    );
    expect(res.status).toBe(400);
    const node = (res.data as unknown as FlowAnswer).ui.nodes.find((n) => n.attributes.name === 'email');
    expect(node?.messages).toEqual([{ id: 4000040, type: 'error', text: 'Enter a valid email address', context: { value: 'not-an-email' } }]);
  });
});

describe('content negotiation', () => {
  it('weighs q-values in Accept', async () => {
    const init = (accept: string) => fetch(`${stack.url}/self-service/login/browser`, { redirect: 'manual', headers: { accept } });
    expect((await init('application/json;q=0, text/html')).status).toBe(303);
    expect((await init('text/html;q=0.5, application/json')).status).toBe(200);
    expect((await init('text/html, application/json;q=0.9')).status).toBe(303);
    expect((await init('application/json')).status).toBe(200);
    expect((await init('*/*')).status).toBe(303);
  });
});

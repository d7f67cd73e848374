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

describe('browser (form) requests', () => {
  it('redirects form submits: errors back to the flow, success to return_to', async () => {
    const user = await registerUser(stack.url);
    const created = await fetch(`${stack.url}/self-service/login/browser?return_to=${encodeURIComponent(`${TEST_UI_URL}/projects`)}`, {
      redirect: 'manual',
    });
    const flowId = new URL(created.headers.get('location') ?? '').searchParams.get('flow') ?? '';
    const cookie = (created.headers.getSetCookie()[0] ?? '').split(';')[0] ?? '';
    const flow = (await (await fetch(`${stack.url}/self-service/login/flows?id=${flowId}`, { headers: { cookie, accept: 'application/json' } })).json()) as {
      ui: { nodes: { attributes: unknown }[] };
    };
    const post = (password: string) =>
      fetch(`${stack.url}/self-service/login?flow=${flowId}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf_token: csrfOf(flow), method: 'password', identifier: user.email, password }).toString(),
      });
    const wrong = await post('not-the-password');
    expect(wrong.status).toBe(303);
    expect(wrong.headers.get('location')).toBe(`${TEST_UI_URL}/login?flow=${flowId}`);
    const ok = await post(user.password);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe(`${TEST_UI_URL}/projects`);
    expect(ok.headers.getSetCookie().some((c) => c.startsWith('ory_kratos_session='))).toBe(true);
  });

  it('sends browser errors to the console error page, readable at /self-service/errors', async () => {
    const res = await fetch(`${stack.url}/self-service/login/browser?return_to=https://evil.example/`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(`${TEST_UI_URL}/error`);
    const b = browser(stack.url);
    const error = await b.api.getFlowError({ id: location.searchParams.get('id') ?? '' });
    expect((error.data.error as { id?: string }).id).toBe('self_service_flow_return_to_forbidden');
    const missing = await b.api.getFlowError({ id: '00000000-0000-4000-8000-000000000000' }, anyStatus);
    expect(missing.status).toBe(404);
  });

  it('answers 400 errorGeneric naming the field for a malformed body', async () => {
    const b = browser(stack.url);
    const flow = b.keep(await b.api.createBrowserLoginFlow());
    const res = await fetch(`${stack.url}/self-service/login?flow=${flow.data.id}`, {
      method: 'POST',
      headers: { cookie: b.cookie(), 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ method: 'password', csrf_token: csrfOf(flow.data), identifier: 42 }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { reason: string } }).error.reason).toContain('identifier');
    const broken = await fetch(`${stack.url}/self-service/login?flow=${flow.data.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{not json',
    });
    expect(broken.status).toBe(400);
  });

  it('serves the identity schema named by schema_url', async () => {
    const user = await registerUser(stack.url);
    const b = browser(stack.url);
    const who = await b.api.toSession({ cookie: user.cookie });
    const schema = (await (await fetch(who.data.identity?.schema_url ?? '')).json()) as { properties: { traits: { required: string[] } } };
    expect(schema.properties.traits.required).toEqual(['email']);
  });
});

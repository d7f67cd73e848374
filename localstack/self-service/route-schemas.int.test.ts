import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { browser, csrfOf, startTestStack } from '../test-support/self-service';

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack({ mailbox: true });
});
afterAll(async () => {
  await stack?.close();
});

type ErrorAnswer = { error: { code: number; status?: string; reason?: string; message: string } };

const KINDS = ['login', 'registration', 'recovery', 'verification', 'settings'] as const;
const long = 'x'.repeat(5000);
const many = Array.from({ length: 20 }, (_, i) => `return_to=${i}`).join('&');

/** Every identity-provider route with query parameters it declares, each given a value its schema refuses. */
const malformedQueries: [string, string][] = [
  ...KINDS.flatMap((kind): [string, string][] => [
    [`/self-service/${kind}/browser, return_to of 5000 characters`, `/self-service/${kind}/browser?return_to=${long}`],
    [`/self-service/${kind}/browser, return_to given 20 times`, `/self-service/${kind}/browser?${many}`],
    [`/self-service/${kind}/flows, id of 5000 characters`, `/self-service/${kind}/flows?id=${long}`],
  ]),
  ['/self-service/logout/browser, return_to of 5000 characters', `/self-service/logout/browser?return_to=${long}`],
  ['/self-service/logout, token of 5000 characters', `/self-service/logout?token=${long}`],
  ['/sessions/whoami, tokenize_as of 5000 characters', `/sessions/whoami?tokenize_as=${long}`],
  ['/local/mailbox/messages, to of 5000 characters', `/local/mailbox/messages?to=${long}`],
];

describe('identity-provider routes declare their query and body schemas', () => {
  it.each(malformedQueries)('GET %s answers Ory’s 400 naming the query, never 500', async (_label, path) => {
    const res = await fetch(`${stack.url}${path}`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(400);
    const body = (await res.json()) as ErrorAnswer;
    expect(body.error.code).toBe(400);
    expect(body.error.reason).toMatch(/query/i);
  });

  it.each(KINDS.filter((k) => k !== 'settings'))('POST /self-service/%s refuses a malformed body with 400 and keeps the flow usable', async (kind) => {
    const b = browser(stack.url);
    const created = await fetch(`${stack.url}/self-service/${kind}/browser`, { headers: { accept: 'application/json' } });
    b.jar.store(created.headers.getSetCookie());
    const flow = (await created.json()) as { id: string; ui: { nodes: { attributes: unknown }[] } };
    const submit = (body: string, type = 'application/json') =>
      fetch(`${stack.url}/self-service/${kind}?flow=${flow.id}`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': type, cookie: b.cookie() },
        body,
      });

    for (const bad of ['[1,2]', '"text"', JSON.stringify({ method: long }), JSON.stringify({ traits: 'not an object' })]) {
      const res = await submit(bad);
      expect(res.status, bad.slice(0, 40)).toBe(400);
      expect(((await res.json()) as ErrorAnswer).error.code).toBe(400);
    }
    // A form with a flat traits.x key is still nested as before, and the flow still answers.
    const form = await submit(`csrf_token=${encodeURIComponent(csrfOf(flow))}&method=nope&traits.email=a%40b.example`, 'application/x-www-form-urlencoded');
    expect(form.status).toBeLessThan(500);
    const again = await fetch(`${stack.url}/self-service/${kind}/flows?id=${flow.id}`, { headers: { accept: 'application/json', cookie: b.cookie() } });
    expect(again.status).toBe(200);
  });

  it('an error id of any shape is simply not found (404), as in Kratos', async () => {
    const res = await fetch(`${stack.url}/self-service/errors?id=${long}`, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(404);
  });

  it('a browser (HTML) caller with a malformed query lands on the error page, as for any other flow error', async () => {
    const res = await fetch(`${stack.url}/self-service/login/browser?return_to=${long}`, { redirect: 'manual' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toMatch(/\/error\?id=/);
  });
});

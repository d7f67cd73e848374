import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { startTestStack, TEST_UI_URL } from '../test-support/self-service';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.close();
});

const flowWith = (kind: string, returnTo: string) =>
  fetch(`${stack.url}/self-service/${kind}/browser?return_to=${encodeURIComponent(returnTo)}`, { headers: { accept: 'application/json' }, redirect: 'manual' });

describe('return_to on the identity provider itself', () => {
  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'https:evil.example',
    '\t//evil.example',
    `${TEST_UI_URL}@evil.example`,
    `${TEST_UI_URL}.evil.example/x`,
    'http://localhost:3001/',
    'javascript:alert(1)',
  ])('refuses %j for every flow kind', async (value) => {
    for (const kind of ['login', 'registration', 'recovery', 'verification']) {
      const res = await flowWith(kind, value);
      expect(res.status, `${kind} ${value}`).toBe(400);
      expect(((await res.json()) as { error: { id: string } }).error.id).toBe('self_service_flow_return_to_forbidden');
    }
  });

  it('keeps a return_to on the console’s origin, as an absolute URL there', async () => {
    for (const value of ['/projects?x=1', `${TEST_UI_URL}/projects?x=1`]) {
      const res = await flowWith('login', value);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { return_to: string }).return_to).toBe(`${TEST_UI_URL}/projects?x=1`);
    }
  });
});

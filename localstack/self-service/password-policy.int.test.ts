import { Configuration, FrontendApi, type UiNode } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { anyStatus, startTestStack } from '../test-support/self-service';

let stack: LocalStack;
let api: FrontendApi;

beforeAll(async () => {
  stack = await startTestStack();
  api = new FrontendApi(new Configuration({ basePath: stack.url }));
});

afterAll(async () => {
  await stack?.close();
});

/** The messages on the password node after a native registration with `password`. */
async function register(email: string, password: string): Promise<{ status: number; messages: { id: number; text: string }[] }> {
  const flow = await api.createNativeRegistrationFlow();
  const res = await api.updateRegistrationFlow(
    { flow: flow.data.id, updateRegistrationFlowBody: { method: 'password', password, traits: { email, name: 'Policy' } } },
    anyStatus,
  );
  const nodes = ((res.data as { ui?: { nodes: UiNode[] } }).ui?.nodes ?? []) as UiNode[];
  const node = nodes.find((n) => (n.attributes as { name?: string }).name === 'password');
  return { status: res.status, messages: (node?.messages ?? []).map((m) => ({ id: m.id, text: m.text })) };
}

describe('the password policy of registration', () => {
  it('refuses a password found in breaches with Kratos\u2019 message, after the length rule', async () => {
    expect(await register('zq-policy-1@example.com', 'password')).toEqual({
      status: 400,
      messages: [{ id: 4000034, text: 'The password has been found in data breaches and must no longer be used.' }],
    });
    expect(await register('zq-policy-2@example.com', 'baseball')).toMatchObject({ status: 400, messages: [{ id: 4000034 }] });
    expect(await register('zq-policy-3@example.com', 'letmein')).toEqual({
      status: 400,
      messages: [{ id: 4000032, text: 'The password must be at least 8 characters long, but got 7.' }],
    });
    expect((await register('zq-policy-4@example.com', 'a-Long-and-unusual-passw0rd')).status).toBe(200);
  });
});

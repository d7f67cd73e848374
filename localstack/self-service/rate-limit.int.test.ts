import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { loginUser, registerUser } from '../../server/test-support/users';
import { anyStatus, browser, csrfOf, startTestStack } from '../test-support/self-service';

type ErrorAnswer = { error: { id?: string; code: number; status: string; reason?: string } };

/** One password attempt on a fresh login flow, from a client claiming `forwardedFor`. */
async function tryLogin(url: string, identifier: string, password: string, forwardedFor: string) {
  const b = browser(url);
  const flow = b.keep(await b.api.createBrowserLoginFlow());
  return b.api.updateLoginFlow(
    {
      flow: flow.data.id,
      cookie: b.cookie(),
      updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), identifier, password },
    },
    { ...anyStatus, headers: { 'x-forwarded-for': forwardedFor } },
  );
}

describe('per-identifier limit', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startTestStack({
      rateLimits: { perIdentifier: { max: 5, windowMs: 60_000 }, perIp: { max: 1000, windowMs: 60_000 } },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers 429 after 5 attempts on one identifier, whatever address they claim to come from', async () => {
    const user = await registerUser(stack.url);
    for (let i = 0; i < 5; i++) {
      const res = await tryLogin(stack.url, user.email, 'wrong-password-123', `203.0.113.${i}`);
      expect(res.status).toBe(400);
    }
    // Even the right password, with the identifier spelled differently, from yet another address.
    const blocked = await tryLogin(stack.url, ` ${user.email.toUpperCase()} `, user.password, '198.51.100.7');
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    const body = blocked.data as unknown as ErrorAnswer;
    expect(body.error).toMatchObject({ id: 'rate_limit_exceeded', code: 429, status: 'Too Many Requests' });
    expect(body.error.reason).toBe(`Too many attempts. Please wait ${retryAfter} seconds before trying again.`);

    const other = await registerUser(stack.url);
    await expect(loginUser(stack.url, other.email, other.password)).resolves.toMatchObject({ identityId: other.identityId });
  });

  it('limits recovery emails to one address', async () => {
    const user = await registerUser(stack.url);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const b = browser(stack.url);
      const flow = b.keep(await b.api.createBrowserRecoveryFlow());
      const res = await b.api.updateRecoveryFlow(
        { flow: flow.data.id, cookie: b.cookie(), updateRecoveryFlowBody: { method: 'code', email: user.email, csrf_token: csrfOf(flow.data) } },
        anyStatus,
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const messages = (await (await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(user.email)}`)).json()) as {
      template_type: string;
    }[];
    expect(messages.filter((m) => m.template_type === 'recovery_code_valid')).toHaveLength(5);
  });
});

describe('per-address limit', () => {
  let stack: LocalStack;
  beforeAll(async () => {
    stack = await startTestStack({
      rateLimits: { perIdentifier: { max: 1000, windowMs: 60_000 }, perIp: { max: 3, windowMs: 60_000 } },
    });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('answers 429 once one client has failed 3 times, whichever identifiers it tries', async () => {
    const user = await registerUser(stack.url);
    for (let i = 0; i < 3; i++) {
      expect((await tryLogin(stack.url, `nobody-${i}@example.com`, 'wrong-password-123', `203.0.113.${i}`)).status).toBe(400);
    }
    const blocked = await tryLogin(stack.url, user.email, user.password, '198.51.100.7');
    expect(blocked.status).toBe(429);
    expect((blocked.data as unknown as ErrorAnswer).error.id).toBe('rate_limit_exceeded');
  });

  it('does not count successful sign-ins and registrations', async () => {
    const fresh = await startTestStack({
      rateLimits: { perIdentifier: { max: 1000, windowMs: 60_000 }, perIp: { max: 2, windowMs: 60_000 } },
    });
    try {
      for (let i = 0; i < 4; i++) {
        const user = await registerUser(fresh.url);
        await expect(loginUser(fresh.url, user.email, user.password)).resolves.toMatchObject({ identityId: user.identityId });
      }
    } finally {
      await fresh.close();
    }
  });
});

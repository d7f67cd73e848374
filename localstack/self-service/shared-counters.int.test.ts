import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalStack } from '../index';
import { anyStatus, browser, csrfOf, startTestStack } from '../test-support/self-service';

/** With REDIS_URL set, every stack instance on one Redis counts sign-in attempts together. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

describe("the local stack's sign-in limit with REDIS_URL", () => {
  const stacks: LocalStack[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      stacks.push(
        await startTestStack({
          redisUrl: REDIS_URL,
          rateLimits: { perIdentifier: { max: 3, windowMs: 60_000 }, perIp: { max: 1000, windowMs: 60_000 } },
        }),
      );
    }
  });
  afterAll(async () => {
    await Promise.all(stacks.map((stack) => stack.close()));
  });

  async function tryLogin(url: string, identifier: string) {
    const b = browser(url);
    const flow = b.keep(await b.api.createBrowserLoginFlow());
    const res = await b.api.updateLoginFlow(
      { flow: flow.data.id, cookie: b.cookie(), updateLoginFlowBody: { method: 'password', csrf_token: csrfOf(flow.data), identifier, password: 'not-the-password-1' } },
      anyStatus,
    );
    return res.status;
  }

  it('refuses the identifier on one instance once attempts on both reach the limit', async () => {
    const [a, b] = stacks as [LocalStack, LocalStack];
    // The console's own tenant is the same on every instance: attempts on either count for one identifier.
    const email = `shared-${Date.now()}-${Math.random().toString(36).slice(2)}@example.com`;
    expect([await tryLogin(a.url, email), await tryLogin(b.url, email), await tryLogin(a.url, email)]).toEqual([400, 400, 400]);
    expect(await tryLogin(b.url, email)).toBe(429);
    // Another identifier is unaffected.
    expect(await tryLogin(b.url, `other-${email}`)).toBe(400);
  });
});

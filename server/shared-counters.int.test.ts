import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { startTestStack, testDeps } from './test-support/bff';
import { registerUser } from './test-support/users';

/**
 * Several instances behind one address must count together: with REDIS_URL set, the BFF's mutation limit
 * lives in Redis (the local stack's sign-in limits: localstack/self-service/shared-counters.int.test.ts), so a client cannot multiply its allowance by the number of
 * instances a load balancer spreads it over.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const api = { 'x-console-request': '1', 'content-type': 'application/json' };

describe('the BFF mutation limit with REDIS_URL', () => {
  let upstream: Awaited<ReturnType<typeof startTestStack>>;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    upstream = await startTestStack();
    for (let i = 0; i < 2; i++) {
      const app = await buildApp(testDeps(upstream.url, { mutationRateLimit: { max: 3, windowMs: 60_000 }, redisUrl: REDIS_URL }));
      await app.ready();
      apps.push(app);
    }
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await upstream?.close();
  });

  const create = (app: FastifyInstance, cookie: string, name: string) =>
    app.inject({ method: 'POST', url: '/api/trpc/workspaces.create', headers: { ...api, cookie }, payload: { name } });

  it('counts one session across two instances, and each session on its own', async () => {
    const [one, two] = apps as [FastifyInstance, FastifyInstance];
    const alice = (await registerUser(upstream.url, {})).cookie;
    const bob = (await registerUser(upstream.url, {})).cookie;
    expect((await create(one, alice, 'Shared one')).statusCode).toBe(200);
    expect((await create(two, alice, 'Shared two')).statusCode).toBe(200);
    expect((await create(one, alice, 'Shared three')).statusCode).toBe(200);
    // The fourth call reaches the other instance, which has seen only one of alice's calls itself.
    const refused = await create(two, alice, 'Shared four');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.data).toMatchObject({ code: 'TOO_MANY_REQUESTS', path: 'workspaces.create' });
    expect((await create(two, bob, 'Bob is counted apart')).statusCode).toBe(200);
  });

  it('lets calls through, and keeps answering, while Redis cannot be reached', async () => {
    const app = await buildApp(testDeps(upstream.url, { mutationRateLimit: { max: 3, windowMs: 60_000 }, redisUrl: 'redis://127.0.0.1:1' }));
    try {
      await app.ready();
      const carol = (await registerUser(upstream.url, {})).cookie;
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++) statuses.push((await create(app, carol, `Outage ${i}`)).statusCode);
      expect(statuses).toEqual([200, 200]);
    } finally {
      await app.close();
    }
  });
});

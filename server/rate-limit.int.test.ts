import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { startTestStack, testDeps, type TestStack } from './test-support/bff';
import { registerUser } from './test-support/users';

let stack: TestStack;
let app: FastifyInstance;
let alice: string;
let bob: string;

const LIMIT = 3;
const EXPORTS = 2;
const api = { 'x-console-request': '1', 'content-type': 'application/json' };

beforeAll(async () => {
  stack = await startTestStack();
  app = await buildApp(testDeps(stack.url, { mutationRateLimit: { max: LIMIT, windowMs: 60_000 }, exportRateLimit: { max: EXPORTS, windowMs: 60_000 } }));
  await app.ready();
  alice = (await registerUser(stack.url, {})).cookie;
  bob = (await registerUser(stack.url, {})).cookie;
});

afterAll(async () => {
  await app?.close();
  await stack?.close();
});

const createWorkspace = (cookie: string | undefined, name: string) =>
  app.inject({ method: 'POST', url: '/api/trpc/workspaces.create', headers: { ...api, ...(cookie ? { cookie } : {}) }, payload: { name } });

describe('the per-session limit on tRPC mutations', () => {
  it('answers 429 TOO_MANY_REQUESTS past the limit, counting each call of a batch, and leaves others and queries alone', async () => {
    const batch = await app.inject({
      method: 'POST',
      url: '/api/trpc/workspaces.create,workspaces.create?batch=1',
      headers: { ...api, cookie: alice },
      payload: { 0: { name: 'Limit one' }, 1: { name: 'Limit two' } },
    });
    expect(batch.statusCode).toBe(200);
    expect((await createWorkspace(alice, 'Limit three')).statusCode).toBe(200);

    const refused = await createWorkspace(alice, 'Limit four');
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers['cache-control']).toBe('no-store');
    expect(refused.json().error).toMatchObject({
      code: -32029,
      message: `Too many changes in a short time. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
      data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, path: 'workspaces.create' },
    });

    const refusedBatch = await app.inject({
      method: 'POST',
      url: '/api/trpc/workspaces.create,projects.setActive?batch=1',
      headers: { ...api, cookie: alice },
      payload: { 0: { name: 'x' }, 1: {} },
    });
    expect(refusedBatch.statusCode).toBe(429);
    expect(refusedBatch.json().map((entry: { error: { data: { code: string; path: string } } }) => [entry.error.data.code, entry.error.data.path])).toEqual([
      ['TOO_MANY_REQUESTS', 'workspaces.create'],
      ['TOO_MANY_REQUESTS', 'projects.setActive'],
    ]);

    // Another session is counted on its own.
    expect((await createWorkspace(bob, 'Bob is fine')).statusCode).toBe(200);
    // Queries are not limited by it.
    const input = encodeURIComponent(JSON.stringify({}));
    const queries = await app.inject({ method: 'GET', url: `/api/trpc/auth.session,workspaces.list?batch=1&input=${input}`, headers: { cookie: alice } });
    expect(queries.statusCode).toBe(200);
    // Nothing past the limit reached the upstream: only the three accepted workspaces exist.
    const names = (await app.inject({ method: 'GET', url: '/api/trpc/workspaces.list', headers: { cookie: alice } })).json().result.data;
    expect(JSON.stringify(names)).not.toContain('Limit four');
  });

  it('counts signed-out callers by address', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await createWorkspace(undefined, 'anon')).statusCode).toBe(401);
    const refused = await createWorkspace(undefined, 'anon');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.data.code).toBe('TOO_MANY_REQUESTS');
  });

  it('counts exports apart from other queries: past their limit a session gets 429, other queries and sessions go on', async () => {
    const carol = (await registerUser(stack.url, {})).cookie;
    const created = await createWorkspace(carol, 'Exported');
    expect(created.statusCode).toBe(200);
    const workspaceId = created.json().result.data.id as string;
    const input = (value: unknown) => encodeURIComponent(JSON.stringify(value));
    const exportLog = (cookie: string) =>
      app.inject({ method: 'GET', url: `/api/trpc/auditLog.export?input=${input({ workspaceId, format: 'json' })}`, headers: { cookie } });

    for (let i = 0; i < EXPORTS; i++) {
      const file = await exportLog(carol);
      expect(file.statusCode, file.body).toBe(200);
      expect(file.json().result.data.content).toContain('workspace.create');
    }
    const refused = await exportLog(carol);
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(refused.json().error).toMatchObject({
      message: `Too many exports in a short time. Try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`,
      data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, path: 'auditLog.export' },
    });
    // The log itself still reads, and the session's changes are counted on their own.
    const listed = await app.inject({ method: 'GET', url: `/api/trpc/auditLog.list?input=${input({ workspaceId })}`, headers: { cookie: carol } });
    expect(listed.statusCode).toBe(200);
    expect((await createWorkspace(carol, 'Still changing')).statusCode).toBe(200);
    // Another session's exports are counted on their own.
    const own = await createWorkspace(bob, 'Bob exports');
    expect(own.statusCode).toBe(200);
    const bobs = await app.inject({
      method: 'GET',
      url: `/api/trpc/auditLog.export?input=${input({ workspaceId: own.json().result.data.id, format: 'csv' })}`,
      headers: { cookie: bob },
    });
    expect(bobs.statusCode).toBe(200);
  });
});

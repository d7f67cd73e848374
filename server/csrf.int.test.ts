import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { TEST_PUBLIC_URL, callerFor, startTestStack, testDeps, type TestStack } from './test-support/bff';
import { registerUser } from './test-support/users';
import type { AppDeps } from './deps';

let stack: TestStack;
let deps: AppDeps;
let app: FastifyInstance;
let cookie: string;

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  app = await buildApp(deps);
  await app.ready();
  cookie = (await registerUser(stack.url, {})).cookie;
});

afterAll(async () => {
  await app?.close();
  await stack?.close();
});

const json = { 'content-type': 'application/json' };
const workspaceNames = async () => (await callerFor(deps, cookie).workspaces.list()).workspaces.map((w) => w.name);
const create = (url: string, headers: Record<string, string>, name: string) =>
  app.inject({ method: 'POST', url, headers: { cookie, ...json, ...headers }, payload: { name } });

describe('mutations need the header and our own site', () => {
  it('refuses a mutation without x-console-request, however the path is spelled', async () => {
    for (const url of ['/api/trpc/workspaces.create', '/%61pi/trpc/workspaces.create', '/api/%74rpc/workspaces.create', '/api/trpc/workspaces%2Ecreate']) {
      const res = await create(url, {}, `no-header ${url}`);
      expect(res.statusCode, url).toBe(403);
    }
    expect(await workspaceNames()).toEqual([]);
  });

  it('refuses a foreign Origin or Sec-Fetch-Site cross-site / same-site, even with the header', async () => {
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'null' },
      { origin: `${TEST_PUBLIC_URL}.evil.example` },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: TEST_PUBLIC_URL, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of foreign) {
      const res = await create('/api/trpc/workspaces.create', { 'x-console-request': '1', ...headers }, 'foreign');
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      const query = await app.inject({ method: 'GET', url: '/api/trpc/projects.list', headers: { cookie, ...headers } });
      expect(query.statusCode, JSON.stringify(headers)).toBe(403);
    }
    expect(await workspaceNames()).toEqual([]);
  });

  it('refuses cross-site posts to /.ory, but not top-level navigations to it', async () => {
    const post = await app.inject({ method: 'POST', url: '/.ory/self-service/login?flow=x', headers: { ...json, 'sec-fetch-site': 'cross-site' }, payload: {} });
    expect(post.statusCode).toBe(403);
    const link = await app.inject({ method: 'GET', url: '/.ory/self-service/login/browser', headers: { accept: 'application/json', 'sec-fetch-site': 'cross-site' } });
    expect(link.statusCode).toBe(200);
  });

  it('accepts our own site', async () => {
    for (const site of ['same-origin', 'none']) {
      const res = await create('/api/trpc/workspaces.create', { 'x-console-request': '1', origin: TEST_PUBLIC_URL, 'sec-fetch-site': site }, `ok-${site}`);
      expect(res.statusCode).toBe(200);
    }
    expect((await workspaceNames()).sort()).toEqual(['ok-none', 'ok-same-origin']);
  });
});

describe('queries cannot mutate', () => {
  it('refuses a mutation over GET (single and batched) and writes nothing', async () => {
    const input = encodeURIComponent(JSON.stringify({ name: 'via-get' }));
    const single = await app.inject({ method: 'GET', url: `/api/trpc/workspaces.create?input=${input}`, headers: { cookie } });
    expect(single.statusCode).toBe(405);
    const batchInput = encodeURIComponent(JSON.stringify({ 0: { name: 'via-get' }, 1: { name: 'via-get' } }));
    const batch = await app.inject({ method: 'GET', url: `/api/trpc/workspaces.create,workspaces.create?batch=1&input=${batchInput}`, headers: { cookie } });
    expect(batch.statusCode).not.toBe(200);
    expect(batch.body).toContain('METHOD_NOT_SUPPORTED');
    expect(await workspaceNames()).not.toContain('via-get');
  });
});

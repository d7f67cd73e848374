import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { startRecordingProxy, type RecordingProxy } from '../test-support/recording-proxy';
import { registerUser } from '../test-support/users';
import { GENERIC_TIMEOUT_MESSAGE, GENERIC_UPSTREAM_MESSAGE } from '../trpc/errors';

let stack: TestStack;
let proxy: RecordingProxy;
let cookie: string;

beforeAll(async () => {
  stack = await startTestStack();
  proxy = await startRecordingProxy(stack.url);
  cookie = (await registerUser(stack.url, {})).cookie;
});

afterAll(async () => {
  await proxy?.close();
  await stack?.close();
});

async function failure(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await promise.then(
    () => new Error('expected a failure'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

describe('an upstream that hangs', () => {
  it('answers GATEWAY_TIMEOUT after the configured timeout', async () => {
    proxy.behaviour = { hang: (req) => req.path.startsWith('/projects') };
    const deps = testDeps(proxy.url, { upstreamTimeoutMs: 300 });
    const started = Date.now();
    const error = await failure(callerFor(deps, cookie).projects.list());
    expect(error.code).toBe('GATEWAY_TIMEOUT');
    expect(error.message).toBe(GENERIC_TIMEOUT_MESSAGE);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('answers GATEWAY_TIMEOUT when the session look-up hangs', async () => {
    proxy.behaviour = { hang: (req) => req.path.startsWith('/sessions/whoami') };
    const deps = testDeps(proxy.url, { upstreamTimeoutMs: 300 });
    expect((await failure(callerFor(deps, cookie).workspaces.list())).code).toBe('GATEWAY_TIMEOUT');
    expect((await failure(callerFor(deps, cookie).auth.session())).code).toBe('GATEWAY_TIMEOUT');
  });
});

describe('an upstream that answers 5xx', () => {
  it('answers BAD_GATEWAY with a generic message, never the upstream detail', async () => {
    proxy.behaviour = { fail: (req) => (req.path.startsWith('/workspaces') ? 500 : undefined) };
    const deps = testDeps(proxy.url);
    const error = await failure(callerFor(deps, cookie).workspaces.list());
    expect(error.code).toBe('BAD_GATEWAY');
    expect(error.message).toBe(GENERIC_UPSTREAM_MESSAGE);
    expect(error.message).not.toContain('internal detail');
  });

  it('passes a 503 on as SERVICE_UNAVAILABLE, worth trying again, still without the upstream detail', async () => {
    proxy.behaviour = { fail: (req) => (req.path.startsWith('/workspaces') ? 503 : undefined) };
    const deps = testDeps(proxy.url);
    const error = await failure(callerFor(deps, cookie).workspaces.list());
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.message).not.toContain('internal detail');
  });

  it('keeps the reason of a 4xx and maps 429 and 409', async () => {
    const deps = testDeps(proxy.url);
    proxy.behaviour = { fail: (req) => (req.path.startsWith('/projects') ? 429 : undefined) };
    const limited = await failure(callerFor(deps, cookie).projects.list());
    expect(limited.code).toBe('TOO_MANY_REQUESTS');
    expect(limited.message).toBe('injected failure 429: internal detail');
    proxy.behaviour = { fail: (req) => (req.path.startsWith('/workspaces') && req.method === 'POST' ? 409 : undefined) };
    expect((await failure(callerFor(deps, cookie).workspaces.create({ name: 'x' }))).code).toBe('CONFLICT');
  });

  it('answers BAD_GATEWAY when the upstream cannot be reached at all', async () => {
    const deps = testDeps('http://127.0.0.1:1');
    expect((await failure(callerFor(deps, cookie).projects.list())).code).toBe('BAD_GATEWAY');
  });
});

describe('auth.session', () => {
  it('answers FORBIDDEN with reason aal2 when the identity provider wants a second factor', async () => {
    proxy.behaviour = { fail: (req) => (req.path.startsWith('/sessions/whoami') ? 403 : undefined) };
    const error = await failure(callerFor(testDeps(proxy.url), cookie).auth.session());
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toBe('aal2');
    proxy.behaviour = {};
  });
});

describe('workspaces.listProjects', () => {
  it('falls back to all projects when the workspace list answers 403 (spec §6)', async () => {
    const deps = testDeps(proxy.url);
    proxy.behaviour = {};
    const caller = callerFor(deps, cookie);
    const ws = (await caller.workspaces.create({ name: 'W' })).id!;
    const project = await caller.projects.create({ name: 'P', environment: 'dev' });
    proxy.behaviour = { fail: (req) => (/^\/workspaces\/[^/]+\/projects/.test(req.path) ? 403 : undefined) };
    expect((await caller.workspaces.listProjects({ workspaceId: ws })).map((p) => p.id)).toContain(project.id);
    proxy.behaviour = { fail: (req) => (/^\/workspaces\/[^/]+\/projects/.test(req.path) ? 404 : undefined) };
    expect((await failure(caller.workspaces.listProjects({ workspaceId: ws }))).code).toBe('NOT_FOUND');
    proxy.behaviour = {};
  });
});

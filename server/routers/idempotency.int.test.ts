import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { createCaller } from './_app';
import { createInnerContext } from '../trpc/context';
import { rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { loginUser, registerUser, type TestUser } from '../test-support/users';

let ts: TestStack;
let deps: AppDeps;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ts = await startTestStack();
  deps = testDeps(ts.url);
  [alice, bob] = await Promise.all([registerUser(ts.url, { name: 'Alice' }), registerUser(ts.url, { name: 'Bob' })]);
});
afterAll(async () => {
  deps?.backoffice.http.close();
  await ts?.close();
});

/** A raw write to the local stack with the user's session and an Idempotency-Key, keeping the answer's headers. */
async function keyed(user: TestUser, method: string, path: string, body: unknown, key: string) {
  const res = await fetch(`${ts.url}${path}`, {
    method,
    headers: { accept: 'application/json', 'content-type': 'application/json', cookie: user.cookie, 'idempotency-key': key },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, replayed: res.headers.get('idempotent-replayed'), body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

/** A read of the local stack with the user's session. */
async function read(user: TestUser, path: string): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${ts.url}${path}`, { headers: { accept: 'application/json', cookie: user.cookie } });
  return { status: res.status, body: await res.json() };
}

async function workspacesNamed(user: TestUser, name: string): Promise<unknown[]> {
  const list = await read(user, '/workspaces?page_size=500');
  expect(list.status).toBe(200);
  return (list.body as { workspaces: { name: string }[] }).workspaces.filter((w) => w.name === name);
}

describe('a write sent again with its Idempotency-Key', () => {
  it('is done once: the repeat gets the first answer, marked as replayed, and the audit log holds one event', async () => {
    const first = await keyed(alice, 'POST', '/workspaces', { name: 'Once' }, 'key-once-1');
    expect(first.status).toBe(201);
    expect(first.replayed).toBeNull();
    const again = await keyed(alice, 'POST', '/workspaces', { name: 'Once' }, 'key-once-1');
    expect(again).toEqual({ status: 201, replayed: 'true', body: first.body });
    expect(await workspacesNamed(alice, 'Once')).toHaveLength(1);

    const log = await read(alice, `/workspaces/${String(first.body.id)}/audit-log`);
    expect(log.status).toBe(200);
    const created = (log.body as { events: { action: string }[] }).events.filter((e) => e.action === 'workspace.create');
    expect(created).toHaveLength(1);
  });

  it('is done once when both arrive at the same moment', async () => {
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => keyed(alice, 'POST', '/workspaces', { name: 'Together' }, 'key-together')));
    expect([a!.status, b!.status, c!.status]).toEqual([201, 201, 201]);
    expect(new Set([a!.body.id, b!.body.id, c!.body.id]).size).toBe(1);
    expect([a, b, c].filter((r) => r!.replayed === 'true')).toHaveLength(2);
    expect(await workspacesNamed(alice, 'Together')).toHaveLength(1);
  });

  it('refuses the same key with another request (409), a malformed key (400), and keeps keys apart per caller', async () => {
    await keyed(alice, 'POST', '/workspaces', { name: 'First use' }, 'key-reused');
    const other = await keyed(alice, 'POST', '/workspaces', { name: 'Second use' }, 'key-reused');
    expect(other.status).toBe(409);
    expect(JSON.stringify(other.body)).toContain('This Idempotency-Key was sent before with another request. Send a new key with each new request.');
    expect(await workspacesNamed(alice, 'Second use')).toHaveLength(0);

    const malformed = await keyed(alice, 'POST', '/workspaces', { name: 'Bad key' }, 'has spaces in it');
    expect(malformed.status).toBe(400);
    expect(JSON.stringify(malformed.body)).toContain('The Idempotency-Key header must be 1 to 255 visible ASCII characters');
    expect(await workspacesNamed(alice, 'Bad key')).toHaveLength(0);

    // Bob's key of the same text is his own: his write is done, Alice's answer is not his.
    const bobs = await keyed(bob, 'POST', '/workspaces', { name: 'First use' }, 'key-reused');
    expect(bobs.status).toBe(201);
    expect(bobs.replayed).toBeNull();
    expect(await workspacesNamed(bob, 'First use')).toHaveLength(1);
  });

  it('keeps no key for a write that failed', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    const failed = await keyed(alice, 'PUT', `/workspaces/${missing}`, { name: 'Nowhere' }, 'key-failed');
    expect(failed.status).toBe(404);
    // The key did not stick to the failure: a real request under it is done.
    const done = await keyed(alice, 'POST', '/workspaces', { name: 'After a failure' }, 'key-failed-then-ok');
    expect(done.status).toBe(201);
  });
});

describe('a console mutation sent again with its Idempotency-Key', () => {
  const callerWith = (user: TestUser, idempotencyKey?: string) => createCaller(createInnerContext({ deps, cookie: user.cookie, idempotencyKey }));

  it('creates one workspace and one project, answering the first answers again', async () => {
    const ws1 = await callerWith(alice, 'console-key-1').workspaces.create({ name: 'Console once' });
    const ws2 = await callerWith(alice, 'console-key-1').workspaces.create({ name: 'Console once' });
    expect(ws2).toEqual(ws1);
    expect(await workspacesNamed(alice, 'Console once')).toHaveLength(1);

    const input = { name: 'Project once', environment: 'dev' as const, workspaceId: ws1.id };
    const p1 = await callerWith(alice, 'console-key-2').projects.create(input);
    const p2 = await callerWith(alice, 'console-key-2').projects.create(input);
    expect(p2.id).toBe(p1.id);
    const projects = await callerWith(alice).projects.list();
    expect(projects.filter((p) => p.name === 'Project once')).toHaveLength(1);

    // Without a key, or with another, a mutation is done each time it is sent.
    await callerWith(alice).workspaces.create({ name: 'Console twice' });
    await callerWith(alice).workspaces.create({ name: 'Console twice' });
    expect(await workspacesNamed(alice, 'Console twice')).toHaveLength(2);
  });

  it('refuses a malformed key with BAD_REQUEST, writing nothing', async () => {
    const error = await rejection(callerWith(alice, 'not a key').workspaces.create({ name: 'Never' }));
    expect(error.code).toBe('BAD_REQUEST');
    expect(error.message).toBe('The Idempotency-Key header must be 1 to 200 visible ASCII characters without spaces, such as a UUID.');
    expect(await workspacesNamed(alice, 'Never')).toHaveLength(0);
  });
});

describe('a key a day old', () => {
  it('is forgotten: the same request under it is done again', async () => {
    const first = await keyed(alice, 'POST', '/workspaces', { name: 'Daily' }, 'key-daily');
    expect(first.status).toBe(201);
    // A day on, the session has ended too; a new one sends the same write under the same key.
    ts.stack.clock.advance(25 * 60 * 60_000);
    const again = { ...alice, cookie: (await loginUser(ts.url, alice.email, alice.password)).cookie };
    const nextDay = await keyed(again, 'POST', '/workspaces', { name: 'Daily' }, 'key-daily');
    expect(nextDay.status).toBe(201);
    expect(nextDay.replayed).toBeNull();
    expect(nextDay.body.id).not.toBe(first.body.id);
  });
});

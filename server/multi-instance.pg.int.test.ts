import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { testDeps } from './test-support/bff';
import { startRoundRobin, type RoundRobin } from './test-support/round-robin';
import { createDurableStore, startTestStack, type DurableStore, type LocalStack } from './test-support/stack';
import { registerUser, requestRecoveryCode } from './test-support/users';

/**
 * Two consoles and two local stacks on one PostgreSQL database, each pair behind a round-robin balancer with
 * no stickiness: every step of a flow, every tRPC call and every key check may land on either instance, and
 * all of them must work as on one. (Collected only when DATABASE_URL is set: PGlite is one process's database.)
 */
let store: DurableStore;
const stacks: LocalStack[] = [];
const apps: FastifyInstance[] = [];
let stackBalancer: RoundRobin;
let consoleBalancer: RoundRobin;

beforeAll(async () => {
  store = await createDurableStore();
  // One after the other: the second finds the migrations done (both would also serialise on the advisory lock).
  for (let i = 0; i < 2; i++) stacks.push(await startTestStack(store.options));
  stackBalancer = await startRoundRobin(stacks.map((s) => s.url));
  for (let i = 0; i < 2; i++) {
    const app = await buildApp(testDeps(stackBalancer.url));
    await app.listen({ port: 0, host: '127.0.0.1' });
    apps.push(app);
  }
  consoleBalancer = await startRoundRobin(apps.map((app) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`));
});

afterAll(async () => {
  await consoleBalancer?.close();
  await Promise.all(apps.map((app) => app.close()));
  await stackBalancer?.close();
  await Promise.all(stacks.map((stack) => stack.close()));
  await store?.dispose();
});

const mutationHeaders = { 'x-console-request': '1', 'content-type': 'application/json' };

async function mutate<T>(cookie: string, path: string, input: unknown): Promise<T> {
  const res = await fetch(`${consoleBalancer.url}/api/trpc/${path}`, { method: 'POST', headers: { ...mutationHeaders, cookie }, body: JSON.stringify(input) });
  const body = (await res.json()) as { result?: { data: T }; error?: unknown };
  expect(res.status, JSON.stringify(body.error)).toBe(200);
  return body.result!.data;
}

async function query<T>(cookie: string, path: string, input: unknown = {}): Promise<T> {
  const res = await fetch(`${consoleBalancer.url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { cookie } });
  const body = (await res.json()) as { result?: { data: T }; error?: unknown };
  expect(res.status, JSON.stringify(body.error)).toBe(200);
  return body.result!.data;
}

describe('two instances of each behind round-robin balancers', () => {
  it('runs sign-up flows, console calls and project keys whichever instance answers each request', async () => {
    const before = [...stackBalancer.served];
    // Creating the registration flow and submitting it reach different stack instances.
    const user = await registerUser(stackBalancer.url, {});
    expect(stackBalancer.served.every((n, i) => n > before[i]!)).toBe(true);

    const workspace = await mutate<{ id: string }>(user.cookie, 'workspaces.create', { name: 'Balanced' });
    const project = await mutate<{ id: string; slug: string }>(user.cookie, 'projects.create', { name: 'Balanced project', environment: 'dev', workspaceId: workspace.id });
    // Two reads in a row: one on each console instance, both see the writes made through the other.
    for (let i = 0; i < 2; i++) {
      const listed = await query<{ workspaces: { id: string; name: string }[] }>(user.cookie, 'workspaces.list');
      expect(listed.workspaces.map((w) => w.name)).toContain('Balanced');
    }
    expect(consoleBalancer.served.every((n) => n >= 2)).toBe(true);

    // A project key made through one instance opens the project's admin API on both stack instances.
    const key = await mutate<{ value: string }>(user.cookie, 'apiKeys.create', { projectId: project.id, name: 'Balanced key' });
    const statuses: number[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${stackBalancer.url}/project-api/${project.slug}/admin/identities`, { headers: { authorization: `Bearer ${key.value}` } });
      await res.body?.cancel();
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200]);
  });

  it('delivers every courier message exactly once while both instances run their couriers', async () => {
    const user = await registerUser(stackBalancer.url, {});
    const SENT = 4;
    for (let i = 0; i < SENT; i++) expect(await requestRecoveryCode(stackBalancer.url, user.email)).toBe(200);

    type Entry = { id: string; template_type: string };
    const read = async () =>
      (
        await Promise.all(
          stacks.map(async (stack) => (await (await fetch(`${stack.url}/local/mailbox/messages?to=${encodeURIComponent(user.email)}`)).json()) as Entry[]),
        )
      ).flat();
    // Both couriers poll the same queue; flushing each runs one pass now rather than waiting for its timer.
    let delivered: Entry[] = [];
    for (let pass = 0; pass < 10 && delivered.length < SENT; pass++) {
      await Promise.all(stacks.map((stack) => stack.courier.flush()));
      delivered = (await read()).filter((m) => m.template_type === 'recovery_code_valid');
    }
    expect(delivered).toHaveLength(SENT);
    expect(new Set(delivered.map((m) => m.id)).size).toBe(SENT);
    // One more pass on each finds nothing left to send twice.
    await Promise.all(stacks.map((stack) => stack.courier.flush()));
    expect((await read()).filter((m) => m.template_type === 'recovery_code_valid')).toHaveLength(SENT);
  });
});

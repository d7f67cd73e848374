import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

let stack: TestStack;
let deps: AppDeps;
let owner: ReturnType<typeof callerFor>;
let server: Server;
let endpoint: string;
const received: { body: string; signature: string; timestamp: string }[] = [];

beforeAll(async () => {
  stack = await startTestStack();
  deps = testDeps(stack.url);
  owner = callerFor(deps, (await registerUser(stack.url, { name: 'Stream Owner' })).cookie);
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['ory-event-signature']), timestamp: String(req.headers['ory-event-timestamp']) });
      res.statusCode = 202;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await stack?.close();
});

describe('event streams through the BFF', () => {
  it('refuses a plan without streams, then creates one whose secret is shown once, sends a signed test, logs it, replays it, pauses and deletes', async () => {
    const project = await owner.projects.create({ name: 'Streams', environment: 'dev' });
    const refused = await rejection(owner.eventStreams.create({ projectId: project.id, type: 'https', https_endpoint: endpoint }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toMatch(/does not include event streams/);
    expect(await owner.eventStreams.list({ projectId: project.id })).toEqual([]);

    const planned = await fetch(`${stack.url}/local/plan`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ project_id: project.id, plan: 'enterprise' }) });
    expect(planned.status).toBe(204);
    const created = await owner.eventStreams.create({ projectId: project.id, type: 'https', https_endpoint: endpoint });
    expect(created).toMatchObject({ type: 'https', status: 'active', https_endpoint: endpoint, secret: expect.stringMatching(/^whsec_/) });
    const listed = await owner.eventStreams.list({ projectId: project.id });
    expect(listed.map((s) => s.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);

    const test = await owner.eventStreams.sendTest({ projectId: project.id, streamId: created.id });
    expect(test).toMatchObject({ status: 'success', response_code: 202, event_type: 'EventStreamTest', attempt: 1 });
    const [got] = received;
    expect(got!.signature).toBe(`v1=${createHmac('sha256', created.secret).update(`${got!.timestamp}.${got!.body}`).digest('hex')}`);

    const replayed = await owner.eventStreams.replay({ projectId: project.id, streamId: created.id, deliveryId: test.delivery_id });
    while ((await stack.stack.eventStreams.flush()) > 0);
    expect(received.filter((r) => JSON.parse(r.body).type === 'EventStreamTest')).toHaveLength(2);
    const log = await owner.eventStreams.deliveries({ projectId: project.id, streamId: created.id });
    expect(log.attempts.map((a) => a.delivery_id).sort()).toEqual([test.delivery_id, replayed.delivery_id].sort());
    expect(log.attempts.every((a) => a.status === 'success' && a.latency_ms >= 0)).toBe(true);

    expect(await owner.eventStreams.set({ projectId: project.id, streamId: created.id, status: 'paused' })).toMatchObject({ status: 'paused', https_endpoint: endpoint });
    const missing = await rejection(owner.eventStreams.replay({ projectId: project.id, streamId: created.id, deliveryId: project.id }));
    expect(missing.code).toBe('NOT_FOUND');
    expect(await owner.eventStreams.delete({ projectId: project.id, streamId: created.id })).toEqual({ ok: true });
    expect(await owner.eventStreams.list({ projectId: project.id })).toEqual([]);
  });
});

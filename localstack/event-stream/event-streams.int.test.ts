import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Configuration, FrontendApi } from '@ory/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, newUser, rawCall, startTestStack, type TestUser } from '../test-support/control-plane';
import type { LocalStack } from '../index';
import { eq, inArray } from 'drizzle-orm';
import { MAX_ATTEMPTS, backoffMs, pruneDeliveries } from './delivery';
import { eventStreamAttempts, eventStreamDeliveries } from './schema';

let stack: LocalStack;
let owner: TestUser;
let outsider: TestUser;

/** A receiver on loopback that records every request and answers `status` (changeable). */
interface Receiver {
  url: string;
  status: number;
  got: { headers: Record<string, string | string[] | undefined>; body: string }[];
  server: Server;
}
async function receiver(status = 204): Promise<Receiver> {
  const r = { url: '', status, got: [], server: createServer() } as Receiver;
  r.server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      r.got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = r.status;
      res.end();
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}/hooks/ory`;
  return r;
}

/** What a receiver checks: the HMAC-SHA256 of `{timestamp}.{body}` with the stream's secret, and a fresh timestamp. */
function validSignature(secret: string, got: Receiver['got'][number], now: number): boolean {
  const timestamp = Number(got.headers['ory-event-timestamp']);
  const expected = Buffer.from(`v1=${createHmac('sha256', secret).update(`${timestamp}.${got.body}`).digest('hex')}`);
  const given = Buffer.from(String(got.headers['ory-event-signature']));
  return Math.abs(now / 1000 - timestamp) < 300 && given.length === expected.length && timingSafeEqual(given, expected);
}

const PASSWORD = 'a-Long-and-unusual-passw0rd';
function projectUsers(slug: string) {
  const api = new FrontendApi(new Configuration({ basePath: `${stack.url}/project-api/${slug}` }));
  return {
    async signUp(): Promise<string> {
      const email = `user-${randomBytes(4).toString('hex')}@example.com`;
      const flow = await api.createNativeRegistrationFlow();
      await api.updateRegistrationFlow({ flow: flow.data.id, updateRegistrationFlowBody: { method: 'password', password: PASSWORD, traits: { email, name: 'User' } } });
      return email;
    },
    async signIn(email: string): Promise<void> {
      const flow = await api.createNativeLoginFlow();
      await api.updateLoginFlow({ flow: flow.data.id, updateLoginFlowBody: { method: 'password', identifier: email, password: PASSWORD } });
    },
  };
}

const receivers: Receiver[] = [];
beforeAll(async () => {
  stack = await startTestStack();
  [owner, outsider] = await Promise.all([newUser(stack, 'Streamer'), newUser(stack, 'Stranger')]);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => new Promise((resolve) => r.server.close(resolve))));
  await stack?.close();
});

const streams = (projectId: string) => `/projects/${projectId}/eventstreams`;
const stackNow = () => stack.clock.now().getTime();

describe('event streams', () => {
  it('delivers every event of the project once, signed; a failing receiver is retried on the clock then marked failed; replay; paused sends nothing', async () => {
    const project = await createProject(owner, 'Streamed');
    const good = await receiver(204);
    const bad = await receiver(500);
    receivers.push(good, bad);

    // The Develop plan has no event streams.
    const refused = await owner.call('POST', streams(project.id), { type: 'https', https_endpoint: good.url });
    expect(refused.status).toBe(403);
    expect(refused.body.error.reason).toMatch(/does not include event streams/);
    expect((await rawCall(stack.url, null, 'PUT', '/local/plan', { project_id: project.id, plan: 'enterprise' })).status).toBe(204);

    const created = await owner.call('POST', streams(project.id), { type: 'https', https_endpoint: good.url });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ type: 'https', status: 'active', https_endpoint: good.url });
    const secret: string = created.body.secret;
    expect(secret).toMatch(/^whsec_/);
    const failing = await owner.call('POST', streams(project.id), { type: 'https', https_endpoint: bad.url });
    expect(failing.status).toBe(201);
    // The secret is shown once: the list never carries it.
    const listed = await owner.call('GET', streams(project.id));
    expect(listed.body.event_streams.map((s: { id: string }) => s.id)).toEqual([created.body.id, failing.body.id]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    // N sign-ins: N in the series, and every event once at the receiver, signed.
    const users = projectUsers(project.slug);
    const from = new Date(stackNow() - 60_000).toISOString();
    const email = await users.signUp();
    const N = 4;
    for (let i = 0; i < N; i++) await users.signIn(email);
    // The sign-up's verification email is sent by the courier, which records that as an event too.
    await stack.courier.flush();
    const to = new Date(stackNow() + 60_000).toISOString();
    const series = await owner.call('GET', `/projects/${project.id}/metrics?event_type=LoginSucceeded&resolution=1h&from=${from}&to=${to}`);
    expect(series.body.data.reduce((n: number, p: { count: number }) => n + p.count, 0)).toBe(N);
    const recorded = await owner.call('POST', `/projects/${project.id}/metrics/events`, { from, to, page_size: 500 });
    // A sign-up and N sign-ins, each with its session, and the verification email.
    expect(recorded.body.events).toHaveLength(2 + 2 * N + 1);

    while ((await stack.eventStreams.flush()) > 0);
    const payloads = good.got.map((g) => JSON.parse(g.body) as { id: string; type: string; project_id: string });
    expect(payloads).toHaveLength(recorded.body.events.length);
    // Each event queued for each of the two streams is one event_stream_events of this month's use.
    const used = await owner.call('GET', `/quota/project/${project.id}/event_stream_events`);
    expect(used.body).toMatchObject({ feature: 'event_stream_events', used: 2 * recorded.body.events.length, is_unlimited: true });
    expect(new Set(payloads.map((p) => p.id)).size).toBe(payloads.length);
    expect(payloads.map((p) => p.type).sort()).toEqual(recorded.body.events.map((e: { name: string }) => e.name).sort());
    expect(payloads.filter((p) => p.type === 'LoginSucceeded')).toHaveLength(N);
    expect(payloads.every((p) => p.project_id === project.id)).toBe(true);
    expect(good.got.every((g) => validSignature(secret, g, stackNow()))).toBe(true);
    expect(validSignature(failing.body.secret, good.got[0]!, stackNow())).toBe(false);

    // The failing receiver got each event once so far; nothing is retried before the backoff has passed.
    expect(bad.got).toHaveLength(payloads.length);
    expect(await stack.eventStreams.flush()).toBe(0);
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      // Once the backoff has passed on the stack's clock, every failed delivery is tried once more.
      stack.clock.advance(backoffMs(attempt - 1));
      while ((await stack.eventStreams.flush()) > 0);
      expect(bad.got).toHaveLength(payloads.length * attempt);
    }
    stack.clock.advance(backoffMs(MAX_ATTEMPTS));
    expect(await stack.eventStreams.flush()).toBe(0);
    const log = await owner.call('GET', `${streams(project.id)}/${failing.body.id}/attempts?page_size=100`);
    expect(log.status).toBe(200);
    expect(log.body.attempts).toHaveLength(Math.min(100, payloads.length * MAX_ATTEMPTS));
    expect(log.body.attempts[0]).toMatchObject({ status: 'failed', response_code: 500, attempt: MAX_ATTEMPTS, delivery_status: 'failed' });
    expect(log.body.attempts.every((a: { latency_ms: number }) => a.latency_ms >= 0)).toBe(true);
    // Paging walks the whole log.
    const first = await owner.call('GET', `${streams(project.id)}/${failing.body.id}/attempts?page_size=7`);
    expect(first.body.attempts).toHaveLength(7);
    const second = await owner.call('GET', `${streams(project.id)}/${failing.body.id}/attempts?page_size=7&page_token=${first.body.next_page_token}`);
    expect(second.body.attempts.map((a: { id: string }) => a.id)).not.toContain(first.body.attempts[0].id);

    // Replay: once the receiver works again, the failed delivery is sent once more and succeeds.
    bad.status = 200;
    const target = log.body.attempts[0];
    const replayed = await owner.call('POST', `${streams(project.id)}/${failing.body.id}/deliveries/${target.delivery_id}/replay`);
    expect(replayed.status).toBe(202);
    const before = bad.got.length;
    while ((await stack.eventStreams.flush()) > 0);
    expect(bad.got).toHaveLength(before + 1);
    const after = await owner.call('GET', `${streams(project.id)}/${failing.body.id}/attempts?page_size=1`);
    expect(after.body.attempts[0]).toMatchObject({ delivery_id: replayed.body.delivery_id, status: 'success', response_code: 200, attempt: 1 });

    // Paused: an event recorded now goes nowhere, then or after resuming.
    const paused = await owner.call('PUT', `${streams(project.id)}/${created.body.id}`, { status: 'paused' });
    expect(paused.body).toMatchObject({ status: 'paused', https_endpoint: good.url });
    const delivered = good.got.length;
    await users.signIn(email);
    while ((await stack.eventStreams.flush()) > 0);
    expect(good.got).toHaveLength(delivered);
    expect((await owner.call('PUT', `${streams(project.id)}/${created.body.id}`, { status: 'active' })).body.status).toBe('active');
    while ((await stack.eventStreams.flush()) > 0);
    expect(good.got).toHaveLength(delivered);

    // A test send goes out now and answers its attempt.
    const test = await owner.call('POST', `${streams(project.id)}/${created.body.id}/test`);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ event_type: 'EventStreamTest', status: 'success', response_code: 204 });
    expect(good.got).toHaveLength(delivered + 1);
    expect(validSignature(secret, good.got.at(-1)!, stackNow())).toBe(true);

    // Another user reaches none of it.
    expect([403, 404]).toContain((await outsider.call('GET', streams(project.id))).status);
    expect([403, 404]).toContain((await outsider.call('DELETE', `${streams(project.id)}/${created.body.id}`)).status);
    expect([403, 404]).toContain((await outsider.call('GET', `${streams(project.id)}/${created.body.id}/attempts`)).status);

    expect((await owner.call('DELETE', `${streams(project.id)}/${failing.body.id}`)).status).toBe(204);
    expect((await owner.call('GET', streams(project.id))).body.event_streams).toHaveLength(1);
    expect((await owner.call('DELETE', `${streams(project.id)}/${failing.body.id}`)).status).toBe(404);
  });

  it('keeps a bounded delivery log: finished deliveries beyond the newest of each stream, or too old, go with their attempts; pending ones stay', async () => {
    const project = await createProject(owner, 'Pruned');
    expect((await rawCall(stack.url, null, 'PUT', '/local/plan', { project_id: project.id, plan: 'enterprise' })).status).toBe(204);
    const good = await receiver(204);
    const down = await receiver(500);
    receivers.push(good, down);
    const kept = await owner.call('POST', streams(project.id), { type: 'https', https_endpoint: good.url });
    const failing = await owner.call('POST', streams(project.id), { type: 'https', https_endpoint: down.url });
    const users = projectUsers(project.slug);
    const email = await users.signUp();
    for (let i = 0; i < 3; i++) await users.signIn(email);
    while ((await stack.eventStreams.flush()) > 0);
    const deliveriesOf = async (streamId: string) =>
      stack.db.orm.select({ id: eventStreamDeliveries.id, status: eventStreamDeliveries.status }).from(eventStreamDeliveries).where(eq(eventStreamDeliveries.stream_id, streamId));
    const delivered = await deliveriesOf(kept.body.id);
    expect(delivered.length).toBeGreaterThan(3);
    expect(delivered.every((d) => d.status === 'success')).toBe(true);
    // The failing stream's deliveries wait for their retry: pending, never pruned.
    const waiting = await deliveriesOf(failing.body.id);
    expect(waiting.every((d) => d.status === 'pending')).toBe(true);

    // A bound of 3 per stream keeps the newest 3 finished deliveries, and their attempts only.
    expect(await pruneDeliveries(stack.db, stack.clock.now(), { maxAgeMs: 3_600_000, perStream: 3 })).toBeGreaterThanOrEqual(delivered.length - 3);
    const left = await deliveriesOf(kept.body.id);
    expect(left).toHaveLength(3);
    const attempts = await stack.db.orm.select({ delivery: eventStreamAttempts.delivery_id }).from(eventStreamAttempts).where(eq(eventStreamAttempts.stream_id, kept.body.id));
    expect(new Set(attempts.map((a) => a.delivery))).toEqual(new Set(left.map((d) => d.id)));
    expect(await deliveriesOf(failing.body.id)).toHaveLength(waiting.length);
    const log = await owner.call('GET', `${streams(project.id)}/${kept.body.id}/attempts?page_size=100`);
    expect(log.body.attempts).toHaveLength(3);

    // The stack's own pruning (its defaults: 30 days, 1000 per stream) leaves this young log alone…
    expect(await stack.eventStreams.prune()).toBe(0);
    expect(await deliveriesOf(kept.body.id)).toHaveLength(3);
    // …and past the age bound, finished deliveries go (asked as of 31 days on: moving the stack's clock would end the sessions of the tests after this one).
    expect(await pruneDeliveries(stack.db, new Date(stackNow() + 31 * 24 * 3_600_000))).toBeGreaterThanOrEqual(3);
    expect(await deliveriesOf(kept.body.id)).toEqual([]);
    const stillThere = await stack.db.orm.select({ id: eventStreamDeliveries.id }).from(eventStreamDeliveries).where(inArray(eventStreamDeliveries.id, waiting.map((d) => d.id)));
    expect(stillThere).toHaveLength(waiting.length);
  });

  it('answers other requests while a test send waits on a slow receiver', async () => {
    const project = await createProject(owner, 'Slow receiver');
    expect((await rawCall(stack.url, null, 'PUT', '/local/plan', { project_id: project.id, plan: 'enterprise' })).status).toBe(204);
    // A receiver that holds every request until it is let go.
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    let arrived!: () => void;
    const arrival = new Promise<void>((resolve) => (arrived = resolve));
    const slow = createServer((req, res) => {
      req.resume();
      arrived();
      void held.then(() => res.end());
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hooks/slow`;
      const stream = await owner.call('POST', streams(project.id), { type: 'https', https_endpoint: url });
      expect(stream.status).toBe(201);
      let sent = false;
      const test = owner.call('POST', `${streams(project.id)}/${stream.body.id}/test`).then((answer) => ((sent = true), answer));
      await arrival;
      // The same project and another user's calls are answered while the receiver still holds the test send.
      expect((await owner.call('GET', streams(project.id))).status).toBe(200);
      expect((await outsider.call('GET', '/projects')).status).toBe(200);
      expect(sent).toBe(false);
      letGo();
      expect((await test).body).toMatchObject({ status: 'success', response_code: 200 });
    } finally {
      letGo();
      await new Promise((resolve) => slow.close(resolve));
    }
  });

  it('keeps sns streams and endpoints off this machine out, and counts streams against the plan', async () => {
    const project = await createProject(owner, 'Checked');
    expect((await rawCall(stack.url, null, 'PUT', '/local/plan', { project_id: project.id, plan: 'Growth@0' })).status).toBe(204);
    const badArn = await owner.call('POST', streams(project.id), { type: 'sns', topic_arn: 'arn:aws:sns:nowhere', role_arn: 'arn:aws:iam::123456789012:role/ory' });
    expect(badArn.status).toBe(400);
    expect(JSON.stringify(badArn.body)).toMatch(/SNS topic ARN/);
    const noEndpoint = await owner.call('POST', streams(project.id), { type: 'https' });
    expect(noEndpoint.status).toBe(400);
    const elsewhere = await owner.call('POST', streams(project.id), { type: 'https', https_endpoint: 'https://192.0.2.10/hook' });
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error.reason).toMatch(/only to endpoints on this machine/);

    const sns = await owner.call('POST', streams(project.id), { type: 'sns', topic_arn: 'arn:aws:sns:us-east-1:123456789012:ory-events', role_arn: 'arn:aws:iam::123456789012:role/ory-events' });
    expect(sns.status).toBe(201);
    expect(sns.body).toMatchObject({ type: 'sns', status: 'active', topic_arn: 'arn:aws:sns:us-east-1:123456789012:ory-events' });
    expect((await owner.call('POST', `${streams(project.id)}/${sns.body.id}/test`)).status).toBe(400);
    // Growth includes one stream.
    const second = await owner.call('POST', streams(project.id), { type: 'sns', topic_arn: 'arn:aws:sns:us-east-1:123456789012:more', role_arn: 'arn:aws:iam::123456789012:role/ory-events' });
    expect(second.status).toBe(403);
    expect(second.body.error.reason).toMatch(/includes 1 event stream/);
    // Switching to https keeps the rule: the endpoint is required.
    const switched = await owner.call('PUT', `${streams(project.id)}/${sns.body.id}`, { type: 'https' });
    expect(switched.status).toBe(400);
  });
});

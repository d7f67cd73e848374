import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postBatch, readRemote } from '../client/src/lib/analytics';
import { ANALYTICS_CONSENT_HEADER } from '../shared/domain/analytics';
import { buildApp } from './app';
import { INGEST_BODY_LIMIT, INGEST_MESSAGES, registerIngest } from './ingest';
import { TEST_PUBLIC_URL, startTestStack, testDeps, type TestStack } from './test-support/bff';
import { registerUser } from './test-support/users';

let stack: TestStack;
let app: FastifyInstance;
let base: string;
let cookie: string;

beforeAll(async () => {
  stack = await startTestStack();
  app = await buildApp(testDeps(stack.url, { analyticsUrl: stack.url }));
  base = await app.listen({ port: 0, host: '127.0.0.1' });
  cookie = (await registerUser(stack.url, {})).cookie;
});
afterAll(async () => {
  await app?.close();
  await stack?.close();
});

/** The browser's fetch on our own origin: same Origin header, the console's request header, the user's cookie. */
const fetchAs =
  (at: string, who: string | undefined): typeof fetch =>
  (input, init) =>
    fetch(`${at}${String(input)}`, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: TEST_PUBLIC_URL, ...(who ? { cookie: who } : {}) } });
const browserFetch: typeof fetch = (input, init) => fetchAs(base, cookie)(input, init);

const stored = async (distinctId: string) => {
  const res = await fetch(`${stack.url}/local/analytics/events?distinct_id=${distinctId}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { event: string; session_id: string | null; properties: Record<string, unknown> }[];
};
const event = (name: string, distinctId: string, properties: Record<string, unknown> = {}) => ({ event: name, distinct_id: distinctId, timestamp: new Date().toISOString(), properties: { $session_id: 's-1', ...properties } });
const headers = (extra: Record<string, string> = {}) => ({ origin: TEST_PUBLIC_URL, 'x-console-request': '1', 'content-type': 'application/json', cookie, ...extra });
const devTool = (path: string, body: unknown) => fetch(`${stack.url}${path}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('analytics through /ingest on our own origin', () => {
  it('tells the browser whether it must ask for consent', async () => {
    expect(await readRemote(`${base}/api/client-config`)).toEqual({ analytics: { consentRequired: false } });
    const strict = await buildApp(testDeps(stack.url, { analyticsUrl: stack.url, analyticsConsentRequired: true }));
    expect((await strict.inject({ method: 'GET', url: '/api/client-config' })).json()).toEqual({ analytics: { consentRequired: true } });
    await strict.close();
  });

  it('stores real batches sent by the client, strings capped at 65535, and reads them back', async () => {
    const who = `user-${Date.now()}`;
    const outcome = await postBatch('/ingest/batch', [event('project created', who, { name: 'x'.repeat(70_000) }), event('$pageview', who, { path: '/projects' })], browserFetch);
    expect(outcome).toBe('ok');
    const events = await stored(who);
    expect(events.map((e) => e.event).sort()).toEqual(['$pageview', 'project created']);
    expect(String(events.find((e) => e.event === 'project created')!.properties.name)).toHaveLength(65_535);
    expect(events.every((e) => e.session_id === 's-1')).toBe(true);
  });

  it('refuses a malformed batch with the field to fix and stores none of it', async () => {
    const who = `bad-${Date.now()}`;
    const undated = await app.inject({ method: 'POST', url: '/ingest/batch', headers: headers(), payload: { batch: [{ event: 'x', distinct_id: who }] } });
    expect(undated.statusCode).toBe(400);
    expect(undated.json().error.reason).toMatch(/timestamp/);
    expect(await postBatch('/ingest/batch', [{ event: '', timestamp: 'yesterday' }], browserFetch)).toBe('drop');
    expect(await stored(who)).toEqual([]);
  });

  it('refuses a batch from another site or without the console header', async () => {
    const payload = { batch: [event('workspace created', 'csrf')] };
    expect((await app.inject({ method: 'POST', url: '/ingest/batch', headers: { origin: 'https://evil.example', 'x-console-request': '1', cookie }, payload })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/ingest/batch', headers: { origin: TEST_PUBLIC_URL, cookie }, payload })).statusCode).toBe(403);
  });

  it('answers with the quota when the upstream is over it, which the client reads as a pause', async () => {
    const who = `quota-${Date.now()}`;
    expect((await devTool('/local/analytics/quota', { limited: true })).status).toBe(204);
    try {
      expect(await postBatch('/ingest/batch', [event('member invite created', who)], browserFetch)).toBe('quota');
    } finally {
      await devTool('/local/analytics/quota', { limited: false });
    }
    expect(await stored(who)).toEqual([]);
    expect(await postBatch('/ingest/batch', [event('member invite created', who)], browserFetch)).toBe('ok');
  });

  it('reads surveys, web experiments and remote config with GET', async () => {
    expect(await readRemote('/ingest/remote_config', browserFetch)).toEqual({ flush_interval_ms: 3000, session_idle_timeout_s: 1800 });
    expect(await readRemote('/ingest/surveys', browserFetch)).toEqual({ surveys: [] });
    expect(await readRemote('/ingest/web_experiments', browserFetch)).toEqual({ web_experiments: [] });
    expect((await browserFetch('/ingest/decide')).status).toBe(404);
  });
});

describe('who may send analytics (spec §1: a consented session, or a local stack)', () => {
  it('refuses a signed-out browser, even on a local stack, and stores nothing', async () => {
    const who = `anonymous-${Date.now()}`;
    const res = await app.inject({ method: 'POST', url: '/ingest/batch', headers: headers({ cookie: 'theme=dark' }), payload: { batch: [event('$pageview', who)] } });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.reason).toBe(INGEST_MESSAGES.signIn);
    const forged = await app.inject({ method: 'POST', url: '/ingest/batch', headers: headers({ cookie: 'ory_kratos_session=forged' }), payload: { batch: [event('$pageview', who)] } });
    expect(forged.statusCode).toBe(401);
    expect(await postBatch('/ingest/batch', [event('$pageview', who)], fetchAs(base, undefined))).toBe('drop');
    expect(await stored(who)).toEqual([]);
  });

  it('off a local stack, takes a batch only from a session that sends the user’s consent', async () => {
    const strict = await buildApp(testDeps(stack.url, { analyticsUrl: stack.url, analyticsConsentRequired: true }));
    const strictBase = await strict.listen({ port: 0, host: '127.0.0.1' });
    try {
      const who = `consent-${Date.now()}`;
      const unconsented = await strict.inject({ method: 'POST', url: '/ingest/batch', headers: headers(), payload: { batch: [event('project created', who)] } });
      expect(unconsented.statusCode).toBe(403);
      expect(unconsented.json().error).toMatchObject({ reason: INGEST_MESSAGES.consent, id: 'analytics_consent_required' });
      const refused = await strict.inject({ method: 'POST', url: '/ingest/batch', headers: headers({ [ANALYTICS_CONSENT_HEADER]: 'denied' }), payload: { batch: [event('project created', who)] } });
      expect(refused.statusCode).toBe(403);
      const signedOut = await strict.inject({ method: 'POST', url: '/ingest/batch', headers: headers({ cookie: '', [ANALYTICS_CONSENT_HEADER]: 'granted' }), payload: { batch: [event('project created', who)] } });
      expect(signedOut.statusCode).toBe(401);
      expect(await stored(who)).toEqual([]);
      // The console's client sends the consent header once the user said yes.
      expect(await postBatch('/ingest/batch', [event('project created', who)], fetchAs(strictBase, cookie), true)).toBe('ok');
      expect((await stored(who)).map((e) => e.event)).toEqual(['project created']);
    } finally {
      await strict.close();
    }
  });
});

describe('how much /ingest takes', () => {
  it('refuses a body over 1 MiB and a batch over 100 events with 413, storing nothing', async () => {
    const who = `large-${Date.now()}`;
    const big = await app.inject({
      method: 'POST',
      url: '/ingest/batch',
      headers: headers(),
      payload: JSON.stringify({ batch: [event('$pageview', who, { blob: 'x'.repeat(INGEST_BODY_LIMIT) })] }),
    });
    expect(big.statusCode).toBe(413);
    expect(big.json().error).toMatchObject({ code: 413, reason: INGEST_MESSAGES.tooLarge });
    const many = await app.inject({ method: 'POST', url: '/ingest/batch', headers: headers(), payload: { batch: Array.from({ length: 101 }, () => event('project switched', who)) } });
    expect(many.statusCode).toBe(413);
    expect(many.json().error.reason).toBe(INGEST_MESSAGES.tooLarge);
    expect(await stored(who)).toEqual([]);
  });

  it('enforces 10 events a second with bursts of 100 per session: the event past the burst answers 429', async () => {
    // The clock stands still, so only the count decides.
    const limited = Fastify();
    limited.decorate('deps', testDeps(stack.url));
    registerIngest(limited, { analyticsUrl: undefined, consentRequired: false, now: () => 1_000_000 });
    const send = (count: number, who = cookie) =>
      limited.inject({ method: 'POST', url: '/ingest/batch', headers: { 'content-type': 'application/json', cookie: who }, payload: { batch: Array.from({ length: count }, () => event('$pageview', 'rate')) } });
    try {
      for (let i = 0; i < 10; i++) expect((await send(10)).statusCode).toBe(204);
      const over = await send(1);
      expect(over.statusCode).toBe(429);
      expect(over.headers['retry-after']).toBe('1');
      expect(over.json().error.reason).toBe(INGEST_MESSAGES.rate);
      // The browser's queue reads it as a pause.
      expect(await postBatch('/ingest/batch', [event('$pageview', 'rate')], (input, init) => limited.inject({ method: 'POST', url: String(input), headers: { ...(init?.headers as Record<string, string>), cookie }, payload: init?.body as string }).then((r) => new Response(r.body, { status: r.statusCode })))).toBe('quota');
      // Another session has its own burst.
      const other = (await registerUser(stack.url, {})).cookie;
      expect((await send(100, other)).statusCode).toBe(204);
      expect((await send(1, other)).statusCode).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('keeps at most the newest N events on the local stack, and none older than its bound', async () => {
    const who = `kept-${Date.now()}`;
    expect((await devTool('/local/analytics/retention', { max_events: 3 })).status).toBe(200);
    try {
      expect(await postBatch('/ingest/batch', Array.from({ length: 5 }, (_, i) => event('$pageview', who, { i })), browserFetch)).toBe('ok');
      expect(await stored(who)).toHaveLength(3);
      expect((await devTool('/local/analytics/retention', {})).status).toBe(200);
      const old = `old-${Date.now()}`;
      expect(await postBatch('/ingest/batch', [event('$pageview', old)], browserFetch)).toBe('ok');
      expect(await stored(old)).toHaveLength(1);
      // Eight days later (the stack's clock), the next batch stored drops what is older than a week.
      expect((await devTool('/local/clock', { advance_days: 8 })).status).toBeLessThan(300);
      const fresh = `fresh-${Date.now()}`;
      expect(await postBatch('/ingest/batch', [event('$pageview', fresh)], browserFetch)).toBe('ok');
      expect(await stored(old)).toEqual([]);
      expect(await stored(fresh)).toHaveLength(1);
    } finally {
      await devTool('/local/analytics/retention', {});
    }
  });
});

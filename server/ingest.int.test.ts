import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postBatch, readRemote } from '../client/src/lib/analytics';
import { buildApp } from './app';
import { TEST_PUBLIC_URL, startTestStack, testDeps, type TestStack } from './test-support/bff';

let stack: TestStack;
let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  stack = await startTestStack();
  app = await buildApp(testDeps(stack.url, { analyticsUrl: stack.url }));
  base = await app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
  await stack?.close();
});

/** The browser's fetch on our own origin: same Origin header, the console's request header. */
const browserFetch: typeof fetch = (input, init) =>
  fetch(`${base}${String(input)}`, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: TEST_PUBLIC_URL } });

const stored = async (distinctId: string) => {
  const res = await fetch(`${stack.url}/local/analytics/events?distinct_id=${distinctId}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { event: string; session_id: string | null; properties: Record<string, unknown> }[];
};
const event = (name: string, distinctId: string, properties: Record<string, unknown> = {}) => ({ event: name, distinct_id: distinctId, timestamp: new Date().toISOString(), properties: { $session_id: 's-1', ...properties } });

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
    const tooMany = Array.from({ length: 101 }, () => event('project switched', who));
    const res = await app.inject({ method: 'POST', url: '/ingest/batch', headers: { origin: TEST_PUBLIC_URL, 'x-console-request': '1', 'content-type': 'application/json' }, payload: { batch: tooMany } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.reason).toMatch(/batch: must hold at most 100 events/);
    const undated = await app.inject({ method: 'POST', url: '/ingest/batch', headers: { origin: TEST_PUBLIC_URL, 'x-console-request': '1', 'content-type': 'application/json' }, payload: { batch: [{ event: 'x', distinct_id: who }] } });
    expect(undated.statusCode).toBe(400);
    expect(undated.json().error.reason).toMatch(/timestamp/);
    expect(await postBatch('/ingest/batch', [{ event: '', timestamp: 'yesterday' }], browserFetch)).toBe('drop');
    expect(await stored(who)).toEqual([]);
  });

  it('refuses a batch from another site or without the console header', async () => {
    const payload = { batch: [event('workspace created', 'csrf')] };
    expect((await app.inject({ method: 'POST', url: '/ingest/batch', headers: { origin: 'https://evil.example', 'x-console-request': '1' }, payload })).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: '/ingest/batch', headers: { origin: TEST_PUBLIC_URL }, payload })).statusCode).toBe(403);
  });

  it('answers with the quota when the upstream is over it, which the client reads as a pause', async () => {
    const who = `quota-${Date.now()}`;
    const limit = (limited: boolean) => fetch(`${stack.url}/local/analytics/quota`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ limited }) });
    expect((await limit(true)).status).toBe(204);
    try {
      expect(await postBatch('/ingest/batch', [event('member invite created', who)], browserFetch)).toBe('quota');
    } finally {
      await limit(false);
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

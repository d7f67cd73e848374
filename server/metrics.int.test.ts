import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveMetrics } from '../shared/metrics';
import { callerFor, rejection, startTestStack, testDeps, type TestStack } from './test-support/bff';
import { registerUser } from './test-support/users';

let stack: TestStack;
let served: Awaited<ReturnType<typeof serveMetrics>>;

beforeAll(async () => {
  stack = await startTestStack();
  served = await serveMetrics(0, '127.0.0.1');
});
afterAll(async () => {
  await served?.close();
  await stack?.close();
});

/** The value of one sample line of the exposition, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('the metrics port', () => {
  it("counts each procedure call by outcome, and shows the local stack's queue and Node's own figures", async () => {
    const deps = testDeps(stack.url);
    const before = await (await fetch(served.url)).text();
    const okSeries = 'console_procedure_duration_seconds_count{procedure="workspaces.list",type="query",outcome="ok"}';
    const deniedSeries = 'console_procedure_duration_seconds_count{procedure="workspaces.list",type="query",outcome="UNAUTHORIZED"}';
    const { cookie } = await registerUser(stack.url, {});
    await callerFor(deps, cookie).workspaces.list({});
    await callerFor(deps, cookie).workspaces.list({});
    expect((await rejection(callerFor(deps).workspaces.list({}))).code).toBe('UNAUTHORIZED');

    const res = await fetch(served.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(sample(text, okSeries)! - (sample(before, okSeries) ?? 0)).toBe(2);
    expect(sample(text, deniedSeries)! - (sample(before, deniedSeries) ?? 0)).toBe(1);
    expect(sample(text, 'localstack_courier_queued_messages')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'localstack_event_stream_pending_deliveries')).toBeGreaterThanOrEqual(0);
    // Labels name procedures, types and outcomes only: never a cookie, an address or an input.
    expect(text).not.toContain(cookie);
    for (const line of text.split('\n').filter((l) => l.startsWith('console_procedure_'))) {
      for (const [, name, value] of line.matchAll(/(\w+)="([^"]*)"/g)) {
        expect(['procedure', 'type', 'outcome', 'le']).toContain(name);
        if (name === 'procedure') expect(value).toMatch(/^[A-Za-z0-9]+(\.[A-Za-z0-9]+)*$/);
      }
    }
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    if (process.env.DATABASE_URL) expect(sample(text, 'localstack_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    expect((await fetch(served.url.replace('/metrics', '/'))).status).toBe(404);
  });
});

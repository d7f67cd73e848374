import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTracing } from '../shared/telemetry';
import { buildApp } from './app';
import { createLogger } from './logger';
import { testDeps } from './test-support/bff';
import { startTestStack, type LocalStack } from './test-support/stack';
import { registerUser } from './test-support/users';

/**
 * Tracing on (as OTEL_EXPORTER_OTLP_ENDPOINT turns it on, with an in-memory exporter instead of OTLP): one
 * console call is one trace, from the console's request through the local stack's request it causes (the
 * W3C traceparent header carries it) down to the database's queries on PostgreSQL, and the log lines written
 * meanwhile by either side name that trace.
 */
const exporter = new InMemorySpanExporter();
const lines: Record<string, unknown>[] = [];
let stopTracing: () => Promise<void>;
let stack: LocalStack;
let app: FastifyInstance;
let appUrl: string;

beforeAll(async () => {
  stopTracing = await startTracing({ serviceName: 'console', exporter });
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger('info', {}, sink);
  stack = await startTestStack({ logger });
  app = await buildApp(testDeps(stack.url, {}, { logger }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  appUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await app?.close();
  await stack?.close();
  await stopTracing?.();
});

const component = (span: ReadableSpan) => span.attributes['console.component'];

describe('tracing', () => {
  it("follows one console call into the local stack and its database, and names the trace in each side's log lines", async () => {
    const { cookie } = await registerUser(stack.url, {});
    exporter.reset();
    lines.length = 0;

    const res = await fetch(`${appUrl}/api/trpc/workspaces.list?input=${encodeURIComponent('{}')}`, { headers: { cookie } });
    expect(res.status).toBe(200);

    const spans = exporter.getFinishedSpans();
    const request = spans.find((s) => component(s) === 'console' && s.name === 'request' && String(s.attributes['url.path']).startsWith('/api/trpc/workspaces.list'));
    expect(request, spans.map((s) => `${String(component(s))} ${s.name}`).join('\n')).toBeDefined();
    const traceId = request!.spanContext().traceId;
    const inTrace = spans.filter((s) => s.spanContext().traceId === traceId);
    const byId = new Map(inTrace.map((s) => [s.spanContext().spanId, s]));
    const stackRequests = inTrace.filter((s) => component(s) === 'localstack' && s.name === 'request');
    expect(stackRequests.length).toBeGreaterThan(0);
    // Each request the call caused in the local stack descends from the console's request span, through the
    // console's spans only (its handler's): the local stack continued the console's trace, not a new one.
    for (const child of stackRequests) {
      let parent = byId.get(child.parentSpanContext?.spanId ?? '');
      while (parent && parent !== request) {
        expect(component(parent)).not.toBe('localstack');
        parent = byId.get(parent.parentSpanContext?.spanId ?? '');
      }
      expect(parent).toBe(request);
    }
    expect(request!.parentSpanContext).toBeUndefined();
    if (process.env.DATABASE_URL) {
      const queries = inTrace.filter((s) => s.instrumentationScope.name.includes('instrumentation-pg') && s.name.startsWith('pg.query'));
      expect(queries.length).toBeGreaterThan(0);
      // …each run for one of the local stack's requests of this call.
      for (const query of queries) {
        let parent = byId.get(query.parentSpanContext?.spanId ?? '');
        while (parent && !stackRequests.includes(parent)) parent = byId.get(parent.parentSpanContext?.spanId ?? '');
        expect(parent).toBeDefined();
      }
    }

    const traced = lines.filter((l) => l.trace_id === traceId);
    expect(traced.some((l) => l.service === 'console' && l.component === undefined && l.msg === 'request completed')).toBe(true);
    expect(traced.some((l) => l.component === 'localstack' && l.msg === 'request completed')).toBe(true);
    // Every request line, of either side, names its trace.
    const requestLines = lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed');
    expect(requestLines.length).toBeGreaterThanOrEqual(4);
    for (const line of requestLines) expect(line.trace_id, JSON.stringify(line)).toMatch(/^[0-9a-f]{32}$/);
  });
});

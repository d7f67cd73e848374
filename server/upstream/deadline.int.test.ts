import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TRPCError } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { callerFor, startTestStack, testDeps, type TestStack } from '../test-support/bff';
import { registerUser } from '../test-support/users';

/**
 * The configured deadline, and how much later than it a call may end: scheduling on a starved machine
 * (a call once ended 1,050 ms late there), yet short of twice the deadline, which a deadline applied twice would take.
 */
const DEADLINE_MS = 2_000;
const MARGIN_MS = 1_900;

interface Trickler {
  url: string;
  /** Bytes sent so far, over all answers. */
  sent(): number;
  close(): Promise<void>;
}

/** An upstream that answers 200 at once and then sends its body one byte every 50 ms, forever. */
async function startTrickler(): Promise<Trickler> {
  let sent = 0;
  const open = new Set<ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const server: Server = createServer((_req, res) => {
    open.add(res);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{');
    sent += 1;
    const timer = setInterval(() => {
      res.write(' ');
      sent += 1;
    }, 50);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      open.delete(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent: () => sent,
    async close() {
      for (const timer of timers) clearInterval(timer);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let stack: TestStack;
let trickler: Trickler;
let cookie: string;

beforeAll(async () => {
  stack = await startTestStack();
  trickler = await startTrickler();
  cookie = (await registerUser(stack.url, {})).cookie;
});

afterAll(async () => {
  await trickler?.close();
  await stack?.close();
});

/** Runs the call, which must fail, and answers its error and how long it took. */
async function timed<T>(call: () => Promise<T>): Promise<{ error: unknown; ms: number; bytes: number }> {
  const bytesBefore = trickler.sent();
  const started = performance.now();
  const error = await call().then(
    () => new Error('expected the call to fail'),
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started, bytes: trickler.sent() - bytesBefore };
}

function expectWithinDeadline(result: { ms: number; bytes: number }) {
  expect(result.ms).toBeGreaterThanOrEqual(DEADLINE_MS - 20);
  expect(result.ms).toBeLessThan(DEADLINE_MS + MARGIN_MS);
  // The upstream kept sending during the call: an idle timeout would never have fired.
  expect(result.bytes).toBeGreaterThan(2);
}

describe('one total deadline for every upstream call, against an upstream that trickles', () => {
  it('the session look-up (@ory/client) fails with GATEWAY_TIMEOUT at the deadline', async () => {
    const deps = testDeps(stack.url, { orySdkUrl: trickler.url, upstreamTimeoutMs: DEADLINE_MS });
    const result = await timed(() => callerFor(deps, 'ory_kratos_session=anything').auth.session());
    expect(result.error).toBeInstanceOf(TRPCError);
    expect((result.error as TRPCError).code).toBe('GATEWAY_TIMEOUT');
    expectWithinDeadline(result);
  });

  it('a control plane call fails with GATEWAY_TIMEOUT at the deadline', async () => {
    const deps = testDeps(stack.url, { backofficeUrl: trickler.url, upstreamTimeoutMs: DEADLINE_MS });
    const result = await timed(() => callerFor(deps, cookie).projects.list());
    expect(result.error).toBeInstanceOf(TRPCError);
    expect((result.error as TRPCError).code).toBe('GATEWAY_TIMEOUT');
    expectWithinDeadline(result);
    deps.backoffice.http.close();
  });

  it('the /.ory proxy answers 504 at the deadline while the body is still arriving', async () => {
    const deps = testDeps(stack.url, { orySdkUrl: trickler.url, upstreamTimeoutMs: DEADLINE_MS });
    const app = await buildApp(deps);
    try {
      const result = await timed(async () => {
        const res = await app.inject({ method: 'GET', url: '/.ory/sessions/whoami', headers: { accept: 'application/json' } });
        throw res;
      });
      const res = result.error as { statusCode: number; json(): { error: { code: number } } };
      expect(res.statusCode).toBe(504);
      expect(res.json().error.code).toBe(504);
      expectWithinDeadline(result);
    } finally {
      await app.close();
    }
  });
});

import { once } from 'node:events';
import { connect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { startTestStack, TEST_PUBLIC_URL, testDeps, type TestStack } from './test-support/bff';
import { startTestStack as startLocalStack } from './test-support/stack';
import { trickleBody } from './test-support/slow-client';
import type { LocalStack } from '../localstack/index';

const REQUEST_TIMEOUT = 500;
/** How much later than the limit the 408 may come: Node checks on a timer, and the machine is shared. */
const MARGIN_MS = 1_500;

let stack: TestStack;
let app: FastifyInstance;
let slowStack: LocalStack;

beforeAll(async () => {
  stack = await startTestStack();
  app = await buildApp(testDeps(stack.url, { requestTimeoutMs: REQUEST_TIMEOUT }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  slowStack = await startLocalStack({ requestTimeoutMs: REQUEST_TIMEOUT });
});

afterAll(async () => {
  await app?.close();
  await slowStack?.close();
  await stack?.close();
});

function expectTimedOut(outcome: Awaited<ReturnType<typeof trickleBody>>) {
  expect(outcome.statusLine).toMatch(/^HTTP\/1\.1 408/);
  expect(outcome.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT - 20);
  expect(outcome.ms).toBeLessThan(REQUEST_TIMEOUT + MARGIN_MS);
  // The client kept sending all along: only a deadline on the whole request ends this.
  expect(outcome.bodyBytesSent).toBeGreaterThan(2);
}

describe('a request body that trickles in', () => {
  it('is cut off by the console with 408 at the request timeout', async () => {
    const { port } = app.server.address() as AddressInfo;
    const outcome = await trickleBody(port, '/api/trpc/workspaces.create', { headers: { 'x-console-request': '1', origin: TEST_PUBLIC_URL } });
    expectTimedOut(outcome);
  });

  it('is cut off by the local stack with 408 at the request timeout', async () => {
    const port = Number(new URL(slowStack.url).port);
    expectTimedOut(await trickleBody(port, '/self-service/login?flow=x'));
  });

  it('is answered 408 and then closed without a reset, even while the client goes on sending', async () => {
    const port = Number(new URL(slowStack.url).port);
    // Half-open allowed: the client may go on sending after the server's FIN, as a slow uploader does.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    const closed = once(socket, 'close');
    await once(socket, 'connect');
    socket.write(`POST /self-service/login?flow=x HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n`);
    let answer = '';
    const errors: string[] = [];
    socket.on('error', (error: NodeJS.ErrnoException) => errors.push(error.code ?? error.message));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    const ended = once(socket, 'end');
    const trickle = setInterval(() => socket.writable && socket.write(' '), 20);
    try {
      await ended;
      // A server that destroys the connection at once answers these bytes with a reset.
      for (let i = 0; i < 5; i += 1) {
        socket.write(' ');
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      clearInterval(trickle);
    }
    socket.end();
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(errors).toEqual([]);
  });

  it('leaves a request that arrives in time alone', async () => {
    const res = await fetch(`${slowStack.url}/health/alive`);
    expect(res.status).toBe(200);
  });
});

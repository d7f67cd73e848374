import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { TEST_PUBLIC_URL, testDeps } from './test-support/bff';

/**
 * An identity provider whose connection closes without an answer, as a kept-alive connection does when the
 * upstream closes it just as the proxy reuses it: the next request whose head arrives is met with a reset;
 * every later one is answered.
 */
let upstream: Server;
let app: FastifyInstance;
let resetNext = false;
const heads: string[] = [];

beforeAll(async () => {
  upstream = createServer((socket: Socket) => {
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      heads.push(received.slice(0, received.indexOf('\r\n')));
      received = '';
      if (resetNext) {
        resetNext = false;
        socket.resetAndDestroy();
        return;
      }
      const body = JSON.stringify({ id: 'a-session', active: true });
      socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      socket.end();
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  app = await buildApp(testDeps(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => upstream.close(resolve));
});

describe('/.ory proxy, a connection closed before any answer', () => {
  it('asks a read once more on a fresh connection, and relays that answer', async () => {
    heads.length = 0;
    resetNext = true;
    const res = await app.inject({ method: 'GET', url: '/.ory/sessions/whoami', headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'a-session', active: true });
    expect(heads).toEqual(['GET /sessions/whoami HTTP/1.1', 'GET /sessions/whoami HTTP/1.1']);
  });

  it('does not send a write twice: it may have been taken; the browser is told the provider could not be reached', async () => {
    heads.length = 0;
    resetNext = true;
    const res = await app.inject({
      method: 'POST',
      url: '/.ory/self-service/login?flow=f',
      headers: { origin: TEST_PUBLIC_URL, accept: 'application/json', 'content-type': 'application/json' },
      payload: { method: 'password', identifier: 'a@example.com', password: 'secret-value' },
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().error.reason).toBe('The identity provider could not be reached.');
    expect(heads).toEqual(['POST /self-service/login?flow=f HTTP/1.1']);
  });
});

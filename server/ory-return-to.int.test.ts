import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { TEST_PUBLIC_URL, testDeps } from './test-support/bff';

/** A stand-in identity provider whose answers point elsewhere, recording what reached it. */
let upstream: Server;
let upstreamUrl: string;
const reached: string[] = [];
let app: FastifyInstance;

const ANSWERS: Record<string, { status: number; headers?: Record<string, string>; body?: unknown }> = {
  '/self-service/login/browser': { status: 303, headers: { location: 'https://evil.example/login' } },
  '/self-service/recovery/browser': { status: 303, headers: { location: '//evil.example/recovery' } },
  '/self-service/verification/browser': { status: 303, headers: { location: '/\\evil.example/x' } },
  '/self-service/settings/browser': { status: 303, headers: { location: `${TEST_PUBLIC_URL}/settings?flow=1` } },
  '/self-service/registration/browser': { status: 200, body: { id: 'f1', return_to: 'https://evil.example/after', ui: { nodes: [] } } },
  '/self-service/login/flows': { status: 200, body: { id: 'f2', return_to: `${TEST_PUBLIC_URL}/projects`, ui: { nodes: [] } } },
};

beforeAll(async () => {
  upstream = createServer((req, res) => {
    reached.push(req.url ?? '');
    const answer = ANSWERS[(req.url ?? '').split('?')[0] ?? ''] ?? { status: 200, body: { ok: true } };
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  app = await buildApp(testDeps(upstreamUrl));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

const TRICKY = [
  'https://evil.example',
  '//evil.example',
  '/\\evil.example',
  '\\\\evil.example',
  'https:evil.example',
  'https:/evil.example',
  '/\t/evil.example',
  ' //evil.example',
  `${TEST_PUBLIC_URL}@evil.example`,
  `${TEST_PUBLIC_URL}.evil.example/x`,
  'http://localhost:3001/x',
  'javascript:alert(1)',
  'data:text/html,hi',
  '%2F%2Fevil.example',
  '/%5Cevil.example'.replace('%5C', '\\'),
];

describe('return_to on /.ory stays on our origin', () => {
  it('refuses every tricky form in the query, raw and encoded, before the identity provider sees it', async () => {
    reached.length = 0;
    for (const value of TRICKY) {
      for (const query of [`return_to=${encodeURIComponent(value)}`, `return_to=${encodeURIComponent(encodeURIComponent(value))}`, `x=1&return_to=%2Fok&return_to=${encodeURIComponent(value)}`]) {
        const res = await app.inject({ method: 'GET', url: `/.ory/self-service/login/browser?${query}`, headers: { accept: 'application/json' } });
        expect(res.statusCode, query).toBe(400);
        expect(res.json().error.id).toBe('self_service_flow_return_to_forbidden');
      }
    }
    expect(reached).toEqual([]);
  });

  it('refuses a return_to in a JSON or form body of a flow submission', async () => {
    reached.length = 0;
    const headers = { origin: TEST_PUBLIC_URL, accept: 'application/json' };
    const asJson = await app.inject({ method: 'POST', url: '/.ory/self-service/login?flow=f', headers: { ...headers, 'content-type': 'application/json' }, payload: { method: 'password', return_to: '//evil.example' } });
    expect(asJson.statusCode).toBe(400);
    const asForm = await app.inject({ method: 'POST', url: '/.ory/self-service/login?flow=f', headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'method=password&return_to=https%3A%2F%2Fevil.example' });
    expect(asForm.statusCode).toBe(400);
    expect(reached).toEqual([]);
    const ours = await app.inject({ method: 'POST', url: '/.ory/self-service/login?flow=f', headers: { ...headers, 'content-type': 'application/json' }, payload: { method: 'password', return_to: `${TEST_PUBLIC_URL}/projects` } });
    expect(ours.statusCode).toBe(200);
  });

  it('never relays a Location that leaves our origin', async () => {
    for (const path of ['login', 'recovery', 'verification']) {
      const res = await app.inject({ method: 'GET', url: `/.ory/self-service/${path}/browser`, headers: { accept: 'text/html' } });
      expect(res.statusCode, path).toBe(502);
      expect(res.headers.location).toBeUndefined();
    }
    const ours = await app.inject({ method: 'GET', url: '/.ory/self-service/settings/browser', headers: { accept: 'text/html' } });
    expect(ours.statusCode).toBe(303);
    expect(ours.headers.location).toBe(`${TEST_PUBLIC_URL}/settings?flow=1`);
  });

  it('drops a foreign return_to from a flow the identity provider answers, and keeps ours', async () => {
    const foreign = await app.inject({ method: 'GET', url: '/.ory/self-service/registration/browser', headers: { accept: 'application/json' } });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.json()).toEqual({ id: 'f1', ui: { nodes: [] } });
    const ours = await app.inject({ method: 'GET', url: '/.ory/self-service/login/flows?id=f2', headers: { accept: 'application/json' } });
    expect(ours.json().return_to).toBe(`${TEST_PUBLIC_URL}/projects`);
  });
});

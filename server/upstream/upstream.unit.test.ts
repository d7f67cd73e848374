import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createUpstreamHttp, path, sessionCookieHeader, UpstreamError } from './http';
import { fromAxiosError } from './ory';

describe('sessionCookieHeader', () => {
  it.each([
    [undefined, undefined],
    ['', undefined],
    ['theme=dark; csrf_token_abc=xyz', undefined],
    ['ory_kratos_session=abc', 'ory_kratos_session=abc'],
    ['a=1; ory_kratos_session=abc; b=2', 'ory_kratos_session=abc'],
    ['ory_session_myproject=t1; x=y; ory_kratos_session=k', 'ory_session_myproject=t1; ory_kratos_session=k'],
    ['ory_kratos_session_fake=1', undefined],
    ['=novalue; ory_kratos_session=v=with=equals', 'ory_kratos_session=v=with=equals'],
  ])('%s → %s', (input, expected) => {
    expect(sessionCookieHeader(input)).toBe(expected);
  });
});

describe('path', () => {
  it('encodes each value as a single segment', () => {
    expect(path`/projects/${'a/../b?x=1'}/members`).toBe('/projects/a%2F..%2Fb%3Fx%3D1/members');
    expect(path`/projects/${'..'}/members`).toBe('/projects/%2E%2E/members');
    expect(path`/projects/${'.'}`).toBe('/projects/%2E');
  });
});

describe('createUpstreamHttp', () => {
  it('refuses paths that do not start with /', async () => {
    const http = createUpstreamHttp({ name: 'backoffice', baseUrl: 'http://127.0.0.1:1', timeoutMs: 100 });
    await expect(http.request({ method: 'GET', path: '@evil.example/x' })).rejects.toThrow(/must start with/);
  });

  it('turns a refused connection into a network UpstreamError (502)', async () => {
    const http = createUpstreamHttp({ name: 'backoffice', baseUrl: 'http://127.0.0.1:1', timeoutMs: 1000 });
    const error = await http.request({ method: 'GET', path: '/projects' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ status: 502, kind: 'network', upstream: 'backoffice' });
  });
});

describe('createUpstreamHttp against a real server', () => {
  it('times out a call that never answers, and forwards only the session cookie', async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer((req) => {
      seen.push(req.headers.cookie);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const http = createUpstreamHttp({ name: 'backoffice', baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 150 });
    const started = Date.now();
    const error = await http.request({ method: 'GET', path: '/projects', cookie: 'a=1; ory_kratos_session=s; b=2' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 504, kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(seen).toEqual(['ory_kratos_session=s']);
    http.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('maps an answer outside 2xx to an UpstreamError carrying the Ory reason', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(409, { 'content-type': 'application/json', 'x-request-id': 'up-1' });
      res.end(JSON.stringify({ error: { code: 409, reason: 'Stale revision', message: 'Conflict' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const http = createUpstreamHttp({ name: 'backoffice', baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 1000 });
    const error = await http.request({ method: 'PATCH', path: '/x', body: [] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 409, reason: 'Stale revision', requestId: 'up-1', kind: 'http' });
    http.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('fromAxiosError', () => {
  it('keeps status, reason and error id of an Ory error body', () => {
    const error = fromAxiosError({
      isAxiosError: true,
      response: { status: 403, data: { error: { id: 'session_aal2_required', code: 403, reason: 'Second factor needed', message: 'forbidden' } }, headers: { 'x-request-id': 'r-1' } },
      config: { method: 'get', url: 'http://x/sessions/whoami?secret=1' },
    });
    expect(error).toMatchObject({ status: 403, reason: 'Second factor needed', errorId: 'session_aal2_required', requestId: 'r-1', kind: 'http' });
    expect(error.detail).toBe('GET /sessions/whoami → 403');
  });

  it('falls back to the message, then to the status', () => {
    expect(fromAxiosError({ response: { status: 404, data: { error: { message: 'Not here' } } } }).reason).toBe('Not here');
    expect(fromAxiosError({ response: { status: 500, data: 'boom' } }).reason).toBe('HTTP 500');
  });

  it('maps timeouts and connection failures', () => {
    expect(fromAxiosError({ code: 'ECONNABORTED' }, 'ory', 50)).toMatchObject({ status: 504, kind: 'timeout' });
    expect(fromAxiosError({ code: 'ECONNREFUSED' })).toMatchObject({ status: 502, kind: 'network' });
  });
});

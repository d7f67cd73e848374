import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { IdentityApi } from '@ory/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createBackofficeClient } from './backoffice';
import { UpstreamError } from './errors';
import { createSdkTransport } from './sdk';

/**
 * An upstream that keeps connections alive and, once armed, meets the next request sent on a connection it has
 * answered before with a reset: what a client meets when the upstream closes an idle kept-alive connection just
 * as the client reuses it. Nothing was answered, so a call that is safe to send twice is sent again on a fresh
 * connection; a write is not.
 */
let upstream: Server;
let base: string;
let resetNextReuse = false;
const heads: string[] = [];
const clients: { close(): void }[] = [];

const ANSWERS: [RegExp, string][] = [
  [/^POST \/projects\/[^/]+\/access /, JSON.stringify({ 'backoffice.project.read': true })],
  [/^GET \/workspaces/, JSON.stringify({ workspaces: [], has_next_page: false })],
  [/^GET \/admin\/identities/, '[]'],
];

beforeAll(async () => {
  upstream = createServer((socket: Socket) => {
    let received = '';
    let answered = 0;
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      for (let end = received.indexOf('\r\n\r\n'); end >= 0; end = received.indexOf('\r\n\r\n')) {
        const head = received.slice(0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (received.length < end + 4 + length) return;
        received = received.slice(end + 4 + length);
        const line = head.slice(0, head.indexOf('\r\n'));
        heads.push(line.replace(/\?.*? HTTP/, ' HTTP').replace(/ HTTP\/1\.1$/, ''));
        if (resetNextReuse && answered > 0) {
          resetNextReuse = false;
          socket.resetAndDestroy();
          return;
        }
        answered++;
        const body = ANSWERS.find(([pattern]) => pattern.test(line))?.[1] ?? '{}';
        socket.write(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: keep-alive\r\n\r\n${body}`);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterEach(() => {
  for (const client of clients.splice(0)) client.close();
  heads.length = 0;
  resetNextReuse = false;
});

afterAll(async () => {
  await new Promise((resolve) => upstream.close(resolve));
});

function backoffice() {
  const client = createBackofficeClient({ baseUrl: base, timeoutMs: 10_000 });
  clients.push(client.http);
  return client;
}

describe('a kept-alive connection the upstream closed as it was reused', () => {
  it('sends a permission check (a read sent as POST) again on a fresh connection', async () => {
    const client = backoffice();
    expect(await client.projectAccess({}, 'p1', ['backoffice.project.read'])).toEqual({ 'backoffice.project.read': true });
    resetNextReuse = true;
    expect(await client.projectAccess({}, 'p1', ['backoffice.project.read'])).toEqual({ 'backoffice.project.read': true });
    expect(heads).toEqual(['POST /projects/p1/access', 'POST /projects/p1/access', 'POST /projects/p1/access']);
  });

  it("sends a control-plane read made through @ory/client again", async () => {
    const client = backoffice();
    await client.listWorkspaces({});
    resetNextReuse = true;
    expect(await client.listWorkspaces({})).toEqual({ workspaces: [], has_next_page: false });
    expect(heads).toEqual(['GET /workspaces', 'GET /workspaces', 'GET /workspaces']);
  });

  it("sends a project API read made through @ory/client again", async () => {
    const transport = createSdkTransport({ upstream: 'project-api', timeoutMs: 10_000 });
    clients.push(transport);
    const identity = transport.guarded(new IdentityApi(transport.configuration(base)));
    await identity.listIdentities();
    resetNextReuse = true;
    expect((await identity.listIdentities()).data).toEqual([]);
    expect(heads).toEqual(['GET /admin/identities', 'GET /admin/identities', 'GET /admin/identities']);
  });

  it('does not send a write without an Idempotency-Key twice: it fails as an upstream that could not be reached', async () => {
    const client = backoffice();
    await client.listWorkspaces({});
    resetNextReuse = true;
    const failed = await client.createWorkspace({}, 'Once').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(UpstreamError);
    expect((failed as UpstreamError).status).toBe(502);
    expect(heads).toEqual(['GET /workspaces', 'POST /workspaces']);
  });
});

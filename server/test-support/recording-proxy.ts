import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  cookie: string | undefined;
  headers: IncomingMessage['headers'];
}

export interface Behaviour {
  /** Never answer these requests (the connection stays open until close()). */
  hang?: (req: RecordedRequest) => boolean;
  /** Answer these requests with this status and an Ory error body instead of forwarding. */
  fail?: (req: RecordedRequest) => number | undefined;
  /** Forward these requests to another path (and query) of the upstream. */
  rewrite?: (req: RecordedRequest) => string;
}

export interface RecordingProxy {
  url: string;
  requests: RecordedRequest[];
  behaviour: Behaviour;
  close(): Promise<void>;
}

/**
 * A real HTTP pass-through in front of an upstream (or of nothing, when every request hangs or fails)
 * that records what reached it — to assert what the BFF forwards, and to inject hangs and 5xx answers.
 */
export async function startRecordingProxy(target: string | undefined, behaviour: Behaviour = {}): Promise<RecordingProxy> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();
  const state: RecordingProxy = { url: '', requests, behaviour, close: async () => {} };
  const server: Server = createServer((req, res) => {
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', cookie: req.headers.cookie, headers: req.headers };
    requests.push(recorded);
    if (state.behaviour.hang?.(recorded)) return;
    const status = state.behaviour.fail?.(recorded);
    if (status !== undefined || !target) {
      const code = status ?? 502;
      res.writeHead(code, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code, status: 'Injected', reason: `injected failure ${code}: internal detail`, message: 'Injected failure' } }));
      return;
    }
    const upstream = new URL(target);
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: state.behaviour.rewrite?.(recorded) ?? req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

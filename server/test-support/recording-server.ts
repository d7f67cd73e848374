import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RecordedRequest } from './recording-proxy';

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** How to answer a request; 'hang' never answers (the connection stays open until close()). */
export type Answerer = (req: RecordedRequest) => Answer | 'hang';

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  answer: Answerer;
  close(): Promise<void>;
}

/** A tiny real HTTP server standing in for an upstream that is not there: records every request, answers as told. */
export async function startRecordingServer(answer: Answerer = () => ({ status: 200, body: {} })): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const state: RecordingServer = { url: '', requests, answer, close: async () => {} };
  const server: Server = createServer((req: IncomingMessage, res) => {
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', cookie: req.headers.cookie, headers: req.headers };
    requests.push(recorded);
    req.resume();
    const reply = state.answer(recorded);
    if (reply === 'hang') return;
    res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
    res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}

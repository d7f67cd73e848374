import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface RoundRobin {
  url: string;
  /** Requests each target has answered, in the order of `targets`. */
  served: number[];
  close(): Promise<void>;
}

/**
 * A load balancer as plain as they come: each request goes to the next target in turn, with no stickiness,
 * so consecutive steps of one flow land on different instances. The Host header is kept, as a balancer
 * in front of several instances of one service keeps it.
 */
export async function startRoundRobin(targets: string[]): Promise<RoundRobin> {
  let next = 0;
  const served = targets.map(() => 0);
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const index = next++ % targets.length;
    served[index]!++;
    const target = new URL(targets[index]!);
    const forward = httpRequest(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  // As long as the instances behind it keep idle connections (Fastify's 72 s), or a client reusing one the
  // balancer has just closed would see it reset.
  server.keepAliveTimeout = 72_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

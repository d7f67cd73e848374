import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay in front of a PostgreSQL server, standing for the network between the stack and its database.
 * `url` is `databaseUrl` with the relay's address. What it can do to the connections:
 *
 * - `silence()`: the connections open now go quiet, as after a network cut or a failover the client was not
 *   told of: nothing the server sends reaches the client any more, and the first bytes the client sends
 *   are answered by a reset. A pool does not know such a connection is dead until it uses it.
 * - `refuse()` / `accept()`: new connections are refused (the database is unreachable) or let through again.
 */
export interface PgRelay {
  url: string;
  /** Connections the relay has let through since it started. */
  readonly opened: number;
  silence(): void;
  refuse(): void;
  accept(): void;
  close(): Promise<void>;
}

export async function startPgRelay(databaseUrl: string): Promise<PgRelay> {
  const target = new URL(databaseUrl);
  const pairs = new Set<{ client: Socket; server: Socket; silenced: boolean }>();
  let refusing = false;
  let opened = 0;
  const relay: Server = createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    opened++;
    const server = connect(Number(target.port || 5432), target.hostname);
    const pair = { client, server, silenced: false };
    pairs.add(pair);
    const drop = () => {
      pairs.delete(pair);
      if (!client.destroyed) client.destroy();
      if (!server.destroyed) server.destroy();
    };
    client.on('data', (chunk) => {
      if (pair.silenced) {
        // The client speaks on a connection that is gone: the reset is all it hears.
        client.resetAndDestroy();
        server.destroy();
        pairs.delete(pair);
        return;
      }
      server.write(chunk);
    });
    server.on('data', (chunk) => {
      if (!pair.silenced) client.write(chunk);
    });
    client.on('error', drop).on('close', () => {
      if (!pair.silenced) drop();
    });
    server.on('error', drop).on('close', () => {
      if (!pair.silenced) drop();
    });
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const { port } = relay.address() as AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    get opened() {
      return opened;
    },
    silence() {
      for (const pair of pairs) {
        pair.silenced = true;
        // The server side goes away for good; the client side stays open and quiet.
        pair.server.destroy();
      }
    },
    refuse() {
      refusing = true;
    },
    accept() {
      refusing = false;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const { client, server } of pairs) {
          client.destroy();
          server.destroy();
        }
        pairs.clear();
        relay.close(() => resolve());
      }),
  };
}

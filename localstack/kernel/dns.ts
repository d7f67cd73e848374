import { Resolver } from 'node:dns/promises';
import dns2 from 'dns2';
import type { Logger } from 'pino';
import { canonicalHostname } from '../../shared/domain/custom-domain';

/** What DNS says of a host name's CNAME record. */
export type CnameAnswer =
  | { kind: 'cname'; target: string }
  /** The name does not exist, or has no CNAME record. */
  | { kind: 'none' }
  /** No answer could be had (timeout, refused, server failure): nothing can be concluded. */
  | { kind: 'unknown'; reason: string };

/** Looks a host name's CNAME record up. */
export interface CnameLookup {
  resolveCname(hostname: string): Promise<CnameAnswer>;
}

const NO_RECORD = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

/**
 * A CNAME look-up with Node's resolver against `servers` ("127.0.0.1:5353", "1.1.1.1"): one try with a
 * short timeout, so that a list answers promptly even when a DNS server is unreachable.
 */
export function createCnameLookup(servers: string[], timeoutMs = 2000): CnameLookup {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.length > 0) resolver.setServers(servers);
  return {
    async resolveCname(hostname) {
      try {
        const [target] = await resolver.resolveCname(canonicalHostname(hostname));
        return target ? { kind: 'cname', target: canonicalHostname(target) } : { kind: 'none' };
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
        return NO_RECORD.has(code) ? { kind: 'none' } : { kind: 'unknown', reason: code };
      }
    },
  };
}

/**
 * The local DNS server: authoritative for whatever names a developer gives it (a CNAME each), on loopback
 * over UDP. Every other name is answered NXDOMAIN. Records live in memory only.
 */
export interface LocalDns {
  /** `host:port` of the server, as `Resolver.setServers` takes it. */
  readonly address: string;
  set(name: string, cname: string): void;
  delete(name: string): boolean;
  records(): { name: string; cname: string }[];
  close(): Promise<void>;
}

const NXDOMAIN = 3;

export async function startLocalDns(opts: { port?: number; log?: Logger } = {}): Promise<LocalDns> {
  const records = new Map<string, string>();
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question ? canonicalHostname(question.name) : '';
      const cname = records.get(name);
      if (!question || cname === undefined) response.header.rcode = NXDOMAIN;
      else if (question.type === Packet.TYPE.CNAME || question.type === Packet.TYPE.A || question.type === Packet.TYPE.AAAA) {
        response.answers.push(new Packet.Resource({ name: question.name, type: Packet.TYPE.CNAME, class: Packet.CLASS.IN, ttl: 1, domain: cname }));
      }
      send(response);
    },
  });
  server.on('requestError', (error: Error) => opts.log?.warn({ err: error }, 'local DNS server could not read a query'));
  const addresses = await server.listen({ udp: { port: opts.port ?? 0, address: '127.0.0.1' } });
  const port = addresses.udp?.port;
  if (!port) {
    await server.close();
    throw new Error('the local DNS server did not start');
  }
  return {
    address: `127.0.0.1:${port}`,
    set: (name, cname) => void records.set(canonicalHostname(name), canonicalHostname(cname)),
    delete: (name) => records.delete(canonicalHostname(name)),
    records: () => [...records].map(([name, cname]) => ({ name, cname })).sort((a, b) => a.name.localeCompare(b.name)),
    close: () => server.close(),
  };
}

import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export type Lookup = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemLookup: Lookup = (host) => dnsLookup(host, { all: true });

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/i;

export const isLoopback = (address: string): boolean => LOOPBACK.test(address);

/**
 * Where a configured host is: on this machine (every address it resolves to is loopback), with the one
 * address the courier connects to (IPv4 first), or elsewhere. The name is resolved once, here: the
 * connection goes to this address, so a name cannot answer loopback to the check and another host to the
 * connection. Rejects when the name does not resolve.
 */
export async function locate(host: string, lookup: Lookup = systemLookup): Promise<{ where: 'loopback'; address: string; family: 4 | 6 } | { where: 'elsewhere' }> {
  const literal = isIP(host);
  const addresses = literal ? [{ address: host, family: literal }] : await lookup(host);
  if (addresses.length === 0 || !addresses.every((a) => isLoopback(a.address))) return { where: 'elsewhere' };
  const [first] = [...addresses].sort((a, b) => a.family - b.family);
  return { where: 'loopback', address: first!.address, family: first!.family === 6 ? 6 : 4 };
}

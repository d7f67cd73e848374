import { locate, systemLookup, type Lookup } from '../courier/network';
import { badRequest } from '../kernel/errors';
import type { JsonObject } from '../kernel/tenant-config';
import { allHookUrls } from './config';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const identityConfig = (services: unknown): JsonObject => {
  const identity = isObject(services) ? services.identity : undefined;
  const config = isObject(identity) ? identity.config : undefined;
  return isObject(config) ? config : {};
};

/**
 * A web hook the configuration gains must be on this machine (as the courier's servers and event streams):
 * the local stack calls nothing beyond it. Hooks the revision already had are left as they are.
 */
export async function assertHooksReachable(previousServices: unknown, nextServices: unknown, lookup: Lookup = systemLookup): Promise<void> {
  const known = new Set(allHookUrls(identityConfig(previousServices)));
  for (const raw of allHookUrls(identityConfig(nextServices))) {
    if (known.has(raw)) continue;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw badRequest(`The web hook URL ${JSON.stringify(raw.slice(0, 200))} is not a URL; give an absolute http(s) URL.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`The web hook URL ${url.origin} must use http or https.`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const located = await locate(host, lookup).catch(() => null);
    if (!located) throw badRequest(`The web hook's host ${host} does not resolve.`);
    if (located.where !== 'loopback') {
      throw badRequest(`The local stack calls web hooks only on this machine (localhost, 127.0.0.1 or ::1), not ${host}; on Ory Network any https URL works.`);
    }
  }
}

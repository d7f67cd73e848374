import { isIP } from 'node:net';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { canonicalHostname } from '../../shared/domain/custom-domain';
import type { Queryable } from '../kernel/queryable';
import { projectApiPath, servedOnCustomHost } from '../kernel/tenant';
import type { CustomDomainRow } from './schema';
import { isServing } from './service';
import { findServedDomain } from './store';

/** The host name of a Host header (port and brackets dropped), lower case. */
function hostnameOf(host: string | undefined): string {
  if (!host) return '';
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  return canonicalHostname(name);
}

/**
 * Addresses, loopback names and single-label names (a compose service's, `localstack`) are the stack's own:
 * never a custom domain (§5 asks for a dot), so never looked up, and their requests reach Fastify at once.
 */
const isOwnName = (name: string) => name === '' || isIP(name) !== 0 || !name.includes('.') || name === 'localhost' || name.endsWith('.localhost');

/** Whether an Origin is one of a domain's CORS origins (a `*.` origin matches any subdomain, with the same scheme and port). */
export function corsAllows(domain: Pick<CustomDomainRow, 'cors_enabled' | 'cors_allowed_origins'>, origin: string): boolean {
  if (!domain.cors_enabled) return false;
  let asked: URL;
  try {
    asked = new URL(origin);
  } catch {
    return false;
  }
  return domain.cors_allowed_origins.some((allowed) => {
    const wildcard = /^(https?:\/\/)\*\.(.+)$/i.exec(allowed);
    if (!wildcard) return allowed.replace(/\/+$/, '').toLowerCase() === asked.origin;
    let base: URL;
    try {
      base = new URL(`${wildcard[1]}${wildcard[2]}`);
    } catch {
      return false;
    }
    return base.protocol === asked.protocol && base.port === asked.port && asked.hostname.endsWith(`.${base.hostname}`);
  });
}

/**
 * Host-based routing of custom domains: a request whose Host is an active custom domain reaches that
 * project's API (its URL rewritten to `/project-api/{slug}/…`), with the domain's origin as the tenant's base
 * and its cookie domain; its CORS origins are answered the CORS headers, a preflight at once. Any other host
 * (the stack's own address, loopback names, unknown names) passes untouched. Answers `true` when the request
 * was answered here.
 */
export function createHostRouter(db: Queryable, log: Logger) {
  return async function routeByHost(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const hostname = hostnameOf(req.headers.host);
    if (isOwnName(hostname)) return false;
    let served: Awaited<ReturnType<typeof findServedDomain>>;
    try {
      served = await findServedDomain(db, hostname);
    } catch (err) {
      log.error({ err, hostname }, 'could not look a custom domain up');
      return false;
    }
    if (!served || !isServing(served.domain)) return false;
    const { domain, project } = served;
    req.url = `${projectApiPath(project.slug)}${req.url?.startsWith('/') ? req.url : `/${req.url ?? ''}`}`;
    servedOnCustomHost(req, { base: `http://${req.headers.host}`, cookieDomain: domain.cookie_domain });
    const origin = req.headers.origin;
    if (typeof origin === 'string' && corsAllows(domain, origin)) {
      res.setHeader('access-control-allow-origin', origin);
      res.setHeader('access-control-allow-credentials', 'true');
      res.setHeader('vary', 'Origin');
      if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
        res.setHeader('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
        const asked = req.headers['access-control-request-headers'];
        if (typeof asked === 'string') res.setHeader('access-control-allow-headers', asked);
        res.setHeader('access-control-max-age', '600');
        res.statusCode = 204;
        res.end();
        return true;
      }
    }
    return false;
  };
}

/**
 * Puts `routeByHost` in front of the handler Fastify gave its own HTTP server (so the server keeps every
 * setting Fastify made: keep-alive, request and header timeouts). Requests on the stack's own names go to
 * Fastify synchronously, as before; a request on any other name waits for its look-up first.
 */
export function routeHostsOn(server: Server, routeByHost: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>): void {
  const handlers = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  if (handlers.length === 0) throw new Error('the HTTP server has no request handler to route custom domains in front of');
  server.removeAllListeners('request');
  const pass = (req: IncomingMessage, res: ServerResponse) => {
    for (const handler of handlers) handler.call(server, req, res);
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (isOwnName(hostnameOf(req.headers.host))) return pass(req, res);
    routeByHost(req, res).then(
      (answered) => answered || pass(req, res),
      () => pass(req, res),
    );
  });
}

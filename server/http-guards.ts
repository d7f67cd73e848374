import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CODE_AFTER_PAINT_SCRIPT } from '../shared/code-after-paint';
import { THEME_BOOT_SCRIPT } from '../shared/theme-boot';
import { oryError } from './ory-proxy';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Sec-Fetch-Site values a browser sends for requests started by another site (a sibling subdomain is one). */
const FOREIGN_SITES = new Set(['cross-site', 'same-site']);
const ORY_ROUTE = '/.ory/*';

/**
 * The path the router matched, or the decoded request path when none matched: the guard must judge what
 * is served, not the raw URL (`/%61pi/trpc/x` is routed like `/api/trpc/x`).
 */
function routedPath(req: FastifyRequest): string {
  const route = req.routeOptions.url;
  if (route) return route;
  const raw = req.url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * CSRF rule (TEAM.md): an unsafe method (POST, PUT, …) anywhere but /.ory needs `x-console-request: 1`; a
 * request to /api (or an unsafe one anywhere) is refused when its Origin is not PUBLIC_URL's origin or when
 * the browser says another site started it (`Sec-Fetch-Site: cross-site` / `same-site`). /.ory is exempt
 * from the header only, since the identity provider's HTML forms post there without custom headers.
 */
export function registerCsrfGuard(app: FastifyInstance, publicOrigin: string): void {
  app.addHook('onRequest', async (req, reply) => {
    const routed = routedPath(req);
    const isOry = routed === ORY_ROUTE || routed.startsWith('/.ory/');
    const isApi = !isOry && (routed === '/api' || routed.startsWith('/api/'));
    const unsafe = !SAFE_METHODS.has(req.method);
    if (!isApi && !unsafe) return;
    const origin = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    if ((origin !== undefined && origin !== publicOrigin) || (typeof site === 'string' && FOREIGN_SITES.has(site))) {
      req.log.warn({ origin, secFetchSite: site }, 'cross-origin request refused');
      return reply.code(403).send(oryError(403, 'Cross-origin requests are not allowed.', 'The requested action was forbidden'));
    }
    if (unsafe && !isOry && req.headers['x-console-request'] !== '1') {
      return reply
        .code(403)
        .send(oryError(403, 'Missing the x-console-request header.', 'The requested action was forbidden'));
    }
  });
}

/**
 * Every answer under /api (tRPC results are per user, errors too) carries `Cache-Control: no-store`, so
 * neither the browser nor a shared cache in between keeps or replays it.
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook('onSend', (req, reply, payload, done) => {
    const routed = routedPath(req);
    if (routed === '/api' || routed.startsWith('/api/')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}

/**
 * Where projects' APIs answer, as a CSP source: the origin of PROJECT_API_URL, with a wildcard for the slug
 * when it is the host's first label (`https://*.projects.oryapis.com`). Null when it cannot be said.
 */
export function projectApiSource(template: string | undefined): string | null {
  if (!template) return null;
  try {
    const url = new URL(template.replace('{slug}', 'slug-probe'));
    if (!url.hostname.includes('slug-probe')) return url.origin;
    return url.hostname.startsWith('slug-probe.') ? `${url.protocol}//*${url.host.slice('slug-probe'.length)}` : null;
  } catch {
    return null;
  }
}

const scriptHash = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** The inline script of every page (the theme before the first paint), allowed by its hash. */
export const THEME_BOOT_SCRIPT_SOURCE = scriptHash(THEME_BOOT_SCRIPT);

/** The inline script of a painted page (its code, loaded once it is on screen), allowed by its hash. */
export const CODE_AFTER_PAINT_SCRIPT_SOURCE = scriptHash(CODE_AFTER_PAINT_SCRIPT);

/**
 * Content-Security-Policy for the Vite-built SPA: everything from our own origin, no inline script but the
 * theme's and a painted page's code loader (by their hashes); frames only of the projects' own hosted pages
 * (the account-experience previews).
 */
export function cspDirectives(publicUrl: string, projectApiUrl?: string): Record<string, string[] | null> {
  const https = publicUrl.startsWith('https://');
  const projectApi = projectApiSource(projectApiUrl);
  return {
    defaultSrc: ["'self'"],
    frameSrc: projectApi ? ["'self'", projectApi] : ["'self'"],
    scriptSrc: ["'self'", THEME_BOOT_SCRIPT_SOURCE, CODE_AFTER_PAINT_SCRIPT_SOURCE],
    scriptSrcAttr: ["'none'"],
    // The toast library injects a <style> element; scripts stay strictly same-origin.
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    baseUri: ["'self'"],
    objectSrc: ["'none'"],
    upgradeInsecureRequests: https ? [] : null,
  };
}

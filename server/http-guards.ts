import type { FastifyInstance } from 'fastify';
import { oryError } from './ory-proxy';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * CSRF rule (TEAM.md): a POST (any unsafe method) to /api needs `x-console-request: 1`; a request to /api
 * whose Origin is present must come from PUBLIC_URL's origin; so must unsafe requests to /.ory.
 */
export function registerCsrfGuard(app: FastifyInstance, publicOrigin: string): void {
  app.addHook('onRequest', async (req, reply) => {
    const isApi = req.url.startsWith('/api/');
    const isOry = req.url.startsWith('/.ory/');
    if (!isApi && !isOry) return;
    const unsafe = !SAFE_METHODS.has(req.method);
    const origin = req.headers.origin;
    if (origin !== undefined && (isApi || unsafe) && origin !== publicOrigin) {
      req.log.warn({ origin }, 'cross-origin request refused');
      return reply.code(403).send(oryError(403, 'Forbidden', 'Cross-origin requests are not allowed.', 'The requested action was forbidden'));
    }
    if (isApi && unsafe && req.headers['x-console-request'] !== '1') {
      return reply
        .code(403)
        .send(oryError(403, 'Forbidden', 'Missing the x-console-request header.', 'The requested action was forbidden'));
    }
  });
}

/** Content-Security-Policy for the Vite-built SPA: everything from our own origin, no inline scripts. */
export function cspDirectives(publicUrl: string): Record<string, string[] | null> {
  const https = publicUrl.startsWith('https://');
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
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

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { oryError } from './ory-proxy';
import { sessionCookieHeader } from './upstream/cookies';

const notFound = (url: string) => oryError(404, `No route ${url.split('?')[0]}`, 'The requested resource could not be found');

/** Hashed file names change with their content: a browser may keep them for a year without asking again. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The app shell names the current hashed assets: the browser asks again each time (a 304 when unchanged). */
export const SHELL_CACHE = 'no-cache';

/** What the client build lists per route (client/vite.config.ts, routePreloads). */
interface RoutePreload {
  pattern: string;
  requiresAuth: boolean;
  files: string[];
}

/** The one call every signed-in page makes first (httpBatchLink's URL for the session query alone). */
export const SESSION_QUERY_URL = '/api/trpc/auth.session?batch=1&input=%7B%7D';

/** Matches a pathname against a route pattern ('/projects/:project/…'), as the client's router does. */
function matches(pattern: string, pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const want = pattern.split('/');
  const have = path.split('/');
  return want.length === have.length && want.every((segment, i) => (segment.startsWith(':') ? have[i] !== '' : segment === have[i]));
}

/**
 * The app shell for one request: the built index.html with, for the route asked for, its page's code
 * named as modulepreloads and, for a signed-in visitor of a signed-in page, the session query as a
 * fetch preload. The browser then fetches them beside the entry script instead of after it has run.
 */
function shellFor(html: string, routes: readonly RoutePreload[]): (req: FastifyRequest) => string {
  return (req) => {
    const pathname = (req.url.split('?')[0] ?? '/').replace(/[^\w/:.~-]/g, '');
    const route = routes.find((r) => matches(r.pattern, pathname));
    if (!route) return html;
    const links = route.files.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`);
    if (route.requiresAuth && sessionCookieHeader(req.headers.cookie)) links.unshift(`<link rel="preload" as="fetch" crossorigin href="${SESSION_QUERY_URL}">`);
    return links.length ? html.replace('</head>', `    ${links.join('\n    ')}\n  </head>`) : html;
  };
}

function readRoutePreloads(root: string): RoutePreload[] {
  try {
    const parsed = JSON.parse(readFileSync(resolve(root, 'route-preloads.json'), 'utf8')) as unknown;
    return Array.isArray(parsed) ? (parsed as RoutePreload[]) : [];
  } catch {
    return [];
  }
}

/**
 * Serves the built client: hashed assets cached for a year, index.html never cached, and index.html
 * for any other GET that accepts HTML (client-side routes). Unknown /api and /.ory paths answer 404 JSON.
 * The build writes a brotli and a gzip copy beside each text file; they are sent as they are to a
 * browser that accepts them (preCompressed), so no request spends time compressing.
 */
export async function registerStaticClient(app: FastifyInstance, dir: string): Promise<void> {
  const root = resolve(dir);
  const hasClient = existsSync(resolve(root, 'index.html'));
  const shell = hasClient ? shellFor(readFileSync(resolve(root, 'index.html'), 'utf8'), readRoutePreloads(root)) : () => '';
  const sendShell = (req: FastifyRequest, reply: FastifyReply) => reply.header('cache-control', SHELL_CACHE).type('text/html; charset=utf-8').send(shell(req));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      index: false,
      preCompressed: true,
      // One route per built file, listed once at start: with a catch-all route, every asset request read the
      // whole assets directory once per path segment to check the path's spelling (a tenth of the console's
      // CPU while a browser loads a page). The build is done before the server starts; the brotli and gzip
      // copies are found beside their file, not routed on their own.
      wildcard: false,
      globIgnore: ['**/*.br', '**/*.gz'],
      setHeaders(reply, filePath) {
        reply.header('cache-control', filePath.includes('/assets/') ? IMMUTABLE_CACHE : SHELL_CACHE);
      },
    });
    // The root is a directory to @fastify/static (index: false), so it gets the app shell explicitly.
    app.get('/', sendShell);
  } else {
    app.log.warn({ dir: root }, 'client build not found; only the API is served');
  }
  app.setNotFoundHandler((req, reply) => {
    const isApi = req.url.startsWith('/api/') || req.url === '/api' || req.url.startsWith('/.ory');
    const wantsHtml = (req.headers.accept ?? '').includes('text/html');
    // A missing asset or file is a 404, never the app shell: only extension-less paths are client routes.
    const path = req.url.split('?')[0] ?? '';
    const isFile = path.startsWith('/assets/') || /\.[a-z0-9]+$/i.test(path);
    if (!isApi && !isFile && hasClient && (req.method === 'GET' || req.method === 'HEAD') && wantsHtml) {
      return sendShell(req, reply);
    }
    return reply.code(404).send(notFound(req.url));
  });
}

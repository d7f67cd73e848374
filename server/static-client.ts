import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import { FIRST_DATA_ELEMENT_ID, matchPattern, type FirstAnswer, type RouteParams } from '../shared/first-queries';
import { answersScriptText, firstAnswers } from './first-data';
import { oryError } from './ory-proxy';
import { sessionCookieHeader } from './upstream/cookies';

const notFound = (url: string) => oryError(404, `No route ${url.split('?')[0]}`, 'The requested resource could not be found');

/** Hashed file names change with their content: a browser may keep them for a year without asking again. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The app shell names the current hashed assets: the browser asks again each time (a 304 when unchanged). */
export const SHELL_CACHE = 'no-cache';

/** What the client build lists per route (client/vite.config.ts, routePreloads). */
interface RoutePreload {
  /** The route's id (client/src/routes.ts), which names its first queries (shared/first-queries.ts). */
  id?: string;
  pattern: string;
  requiresAuth: boolean;
  files: string[];
}

/** Answers a signed-in page's first queries for the HTML (server/first-data.ts); replaceable in tests. */
export type FirstAnswersSource = (req: FastifyRequest, routeId: string, params: RouteParams) => Promise<FirstAnswer[]>;

/** The HTML of a signed-in page carries its visitor's data: no shared cache may keep it. */
export const PERSONAL_SHELL_CACHE = 'private, no-cache';

/**
 * The app shell for one request: the built index.html with, for the route asked for, its page's code
 * named as modulepreloads, so the browser fetches it beside the entry script instead of after it has run.
 * For a visitor with a session cookie on a signed-in page, the HTML also carries the page's first
 * answers (a JSON element before `</body>`): the head goes out at once, so the browser fetches the code
 * while the server asks; the rest follows with the answers. The entry script, a module, runs only once
 * the whole document is in, so it finds them there and the page needs no round trip before it shows.
 */
function shellFor(html: string, routes: readonly RoutePreload[], answers: FirstAnswersSource) {
  const [head = html, body = ''] = html.split(/(?=<\/head>)/);
  return (req: FastifyRequest, reply: FastifyReply) => {
    const pathname = (req.url.split('?')[0] ?? '/').replace(/[^\w/:.~-]/g, '');
    let route: RoutePreload | undefined;
    let params: RouteParams = {};
    for (const candidate of routes) {
      const found = matchPattern(candidate.pattern, pathname);
      if (found) {
        route = candidate;
        params = found;
        break;
      }
    }
    reply.header('cache-control', SHELL_CACHE).type('text/html; charset=utf-8');
    if (!route) return reply.send(html);
    const links = route.files.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`);
    const withLinks = links.length ? `${head}    ${links.join('\n    ')}\n  ` : head;
    const personal = route.requiresAuth && route.id !== undefined && req.method === 'GET' && sessionCookieHeader(req.headers.cookie) !== undefined;
    if (!personal) return reply.send(withLinks + body);
    const stream = new PassThrough();
    stream.write(withLinks);
    void answers(req, route.id!, params)
      .catch((error: unknown) => {
        req.log.warn({ err: error }, 'first answers for the page failed; the page asks for them itself');
        return [] as FirstAnswer[];
      })
      .then((found) => {
        const element = found.length ? `<script type="application/json" id="${FIRST_DATA_ELEMENT_ID}">${answersScriptText(found)}</script>` : '';
        stream.end(body.replace('</body>', `${element}</body>`));
      });
    return reply.header('cache-control', PERSONAL_SHELL_CACHE).header('vary', 'Cookie').send(stream);
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
export async function registerStaticClient(app: FastifyInstance, dir: string, answers: FirstAnswersSource = firstAnswers): Promise<void> {
  const root = resolve(dir);
  const hasClient = existsSync(resolve(root, 'index.html'));
  const sendShell = hasClient
    ? shellFor(readFileSync(resolve(root, 'index.html'), 'utf8'), readRoutePreloads(root), answers)
    : (_req: FastifyRequest, reply: FastifyReply) => reply.send('');
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

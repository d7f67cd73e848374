import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { oryError } from './ory-proxy';

const notFound = (url: string) => oryError(404, `No route ${url.split('?')[0]}`, 'The requested resource could not be found');

/** Hashed file names change with their content: a browser may keep them for a year without asking again. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** The app shell names the current hashed assets: the browser asks again each time (a 304 when unchanged). */
export const SHELL_CACHE = 'no-cache';

/**
 * Serves the built client: hashed assets cached for a year, index.html never cached, and index.html
 * for any other GET that accepts HTML (client-side routes). Unknown /api and /.ory paths answer 404 JSON.
 * The build writes a brotli and a gzip copy beside each text file; they are sent as they are to a
 * browser that accepts them (preCompressed), so no request spends time compressing.
 */
export async function registerStaticClient(app: FastifyInstance, dir: string): Promise<void> {
  const root = resolve(dir);
  const hasClient = existsSync(resolve(root, 'index.html'));
  if (hasClient) {
    await app.register(fastifyStatic, {
      root,
      prefix: '/',
      index: false,
      preCompressed: true,
      setHeaders(reply, filePath) {
        reply.header('cache-control', filePath.includes('/assets/') ? IMMUTABLE_CACHE : SHELL_CACHE);
      },
    });
    // The root is a directory to @fastify/static (index: false), so it gets the app shell explicitly.
    app.get('/', (_req, reply) => reply.header('cache-control', SHELL_CACHE).type('text/html; charset=utf-8').sendFile('index.html'));
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
      return reply.header('cache-control', SHELL_CACHE).type('text/html; charset=utf-8').sendFile('index.html');
    }
    return reply.code(404).send(notFound(req.url));
  });
}

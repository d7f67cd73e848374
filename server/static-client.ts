import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PassThrough } from 'node:stream';
import { CODE_AFTER_PAINT_ELEMENT_ID, CODE_AFTER_PAINT_SCRIPT, type CodeAfterPaint } from '../shared/code-after-paint';
import { FIRST_DATA_ELEMENT_ID, matchRoute, type FirstAnswer, type RouteParams } from '../shared/first-queries';
import { readerZoneOf } from '../shared/reader-zone';
import { THEME_BOOT_SCRIPT } from '../shared/theme-boot';
import { firstAnswers, scriptJsonText } from './first-data';
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

/**
 * The server's first paint of a page (client/src/entry-server.tsx, built into client/dist-ssr): the page at
 * `url` rendered to HTML from the answers as the browser receives them, or undefined when it is not painted.
 */
export type FirstPaint = (url: string, answers: readonly FirstAnswer[], options?: { timeZone?: string }) => Promise<string | undefined>;

/** Where the client build's root element is, empty, in index.html. */
const EMPTY_ROOT = '<div id="root"></div>';

/** The HTML of a signed-in page carries its visitor's data: no shared cache may keep it. */
export const PERSONAL_SHELL_CACHE = 'private, no-cache';

/**
 * The app shell for one request: the built index.html with, for the route asked for, its page's code
 * named as modulepreloads, so the browser fetches it beside the entry script instead of after it has run.
 * For a visitor with a session cookie on a signed-in page, the HTML also carries the page's first
 * answers (a JSON element before `</body>`): the head goes out at once, so the browser fetches the style
 * sheet while the server asks; the rest follows with the answers. The entry script, a module, runs only once
 * the whole document is in, so it finds them there and the page needs no round trip before it shows.
 * With every first answer in, the server also paints the page (`paint`): the root element arrives with
 * the page rendered in it, inert, and the browser shows it before the code has run; the client's first
 * render takes its place. A paint that fails or is not possible leaves the root empty, as before.
 *
 * A personal page's code is named once its answers are in, not in the head sent at once: the browser would
 * otherwise fetch and compile it on the same cores as the server asks those answers, and then lay out and
 * paint the page while compiling the rest. A painted page names it in a list that an inline script loads
 * after the browser's next frame (shared/code-after-paint.ts); a page not painted names it at once, in the
 * head; and answers not in within the config's `firstCodeHoldMs` do not hold it back any longer.
 */
function shellFor(html: string, routes: readonly RoutePreload[], answers: FirstAnswersSource, paint: FirstPaint | undefined) {
  const [rawHead = html, body = ''] = html.split(/(?=<\/head>)/);
  // The theme is set before anything paints (shared/theme-boot.ts), early in the head. The style sheets
  // follow at once: the first paint waits for them, and named after the thirty-odd scripts (as the build writes
  // them) they were asked for only once a connection of the six was free.
  const sheets = rawHead.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
  const head = sheets
    .reduce((text, sheet) => text.replace(sheet, ''), rawHead)
    .replace(/<title>/, `<script>${THEME_BOOT_SCRIPT}</script>${sheets.map((sheet) => `\n    ${sheet}`).join('')}\n    <title>`)
    .replace(/\n\s*\n/g, '\n');
  const page = head + body;
  // The build's code in the head: its entry script and the modules it preloads.
  const entryTag = /<script type="module"[^>]*\bsrc="([^"]+)"[^>]*><\/script>/.exec(head);
  const preloadTags = [...head.matchAll(/<link rel="modulepreload"[^>]*\bhref="([^"]+)"[^>]*>/g)];
  const codeFreeHead = [entryTag, ...preloadTags].reduce((text, tag) => (tag ? text.replace(tag[0], '') : text), head).replace(/\n\s*\n/g, '\n');
  return (req: FastifyRequest, reply: FastifyReply) => {
    const pathname = (req.url.split('?')[0] ?? '/').replace(/[^\w/:.~-]/g, '');
    const match = matchRoute(routes, pathname);
    reply.header('cache-control', SHELL_CACHE).type('text/html; charset=utf-8');
    if (!match) return reply.send(page);
    const { route, params } = match;
    const links = route.files.map((file) => `<link rel="modulepreload" crossorigin href="${file}">`);
    const withLinks = links.length ? `${head}    ${links.join('\n    ')}\n  ` : head;
    const personal = route.requiresAuth && route.id !== undefined && req.method === 'GET' && sessionCookieHeader(req.headers.cookie) !== undefined;
    if (!personal) return reply.send(withLinks + body);
    const stream = new PassThrough();
    stream.write(codeFreeHead);
    // The code as the head would have named it, written there (the head is still open) when it may not wait.
    const codeTags = [...(entryTag ? [entryTag[0]] : []), ...preloadTags.map((tag) => tag[0]), ...links];
    const code = codeTags.length ? `    ${codeTags.join('\n    ')}\n  ` : '';
    let codeNamed = false;
    const nameCode = () => {
      if (codeNamed) return;
      codeNamed = true;
      stream.write(code);
    };
    const hold = setTimeout(nameCode, req.server.deps.config.firstCodeHoldMs);
    void answers(req, route.id!, params)
      .catch((error: unknown) => {
        req.log.warn({ err: error }, 'first answers for the page failed; the page asks for them itself');
        return [] as FirstAnswer[];
      })
      .then(async (found) => {
        if (!found.length) return body;
        const text = scriptJsonText(found);
        const element = `<script type="application/json" id="${FIRST_DATA_ELEMENT_ID}">${text}</script>`;
        const painted = paint && body.includes(EMPTY_ROOT) ? await paintPage(paint, req, JSON.parse(text) as FirstAnswer[]) : undefined;
        if (!painted) return body.replace('</body>', () => `${element}</body>`);
        // Replaced by functions: a '$&' or "$'" in the visitor's data is text, not a replacement pattern.
        const withRoot = body.replace(EMPTY_ROOT, () => `<div id="root" inert>${painted}</div>`);
        if (codeNamed || !entryTag) return withRoot.replace('</body>', () => `${element}</body>`);
        codeNamed = true;
        const later: CodeAfterPaint = { entry: entryTag[1]!, preloads: [...preloadTags.map((tag) => tag[1]!), ...route.files] };
        const loader = `<script type="application/json" id="${CODE_AFTER_PAINT_ELEMENT_ID}">${scriptJsonText(later)}</script><script>${CODE_AFTER_PAINT_SCRIPT}</script>`;
        return withRoot.replace('</body>', () => `${element}${loader}</body>`);
      })
      .then((rest) => {
        clearTimeout(hold);
        nameCode();
        stream.end(rest);
      });
    return reply.header('cache-control', PERSONAL_SHELL_CACHE).header('vary', 'Cookie').send(stream);
  };
}

/** The page painted, or undefined (logged) when painting it failed: the browser then renders it alone. */
async function paintPage(paint: FirstPaint, req: FastifyRequest, answers: readonly FirstAnswer[]): Promise<string | undefined> {
  try {
    // Dates in the zone the visitor's browser named (shared/reader-zone.ts), as the page will show them.
    return await paint(req.url, answers, { timeZone: readerZoneOf(req.headers.cookie) });
  } catch (error) {
    req.log.warn({ err: error, url: req.url.split('?')[0] }, 'painting the page on the server failed; the browser renders it');
    return undefined;
  }
}

/**
 * The first-paint renderer of the build (client/dist-ssr beside the client's dist), or undefined when the
 * build has none or it does not load: pages are then rendered by the browser alone.
 */
export async function loadFirstPaint(clientDir: string, log: FastifyInstance['log']): Promise<FirstPaint | undefined> {
  const entry = resolve(clientDir, '..', 'dist-ssr', 'entry-server.js');
  if (!existsSync(entry)) return undefined;
  try {
    const module = (await import(pathToFileURL(entry).href)) as { renderFirstPaint?: FirstPaint };
    return typeof module.renderFirstPaint === 'function' ? module.renderFirstPaint : undefined;
  } catch (error) {
    log.warn({ err: error, entry }, 'the first-paint renderer did not load; pages are rendered by the browser alone');
    return undefined;
  }
}

/** Types of what a build writes to assets/ (anything else goes as bytes). */
const ASSET_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
};

/** A built asset with the brotli and gzip copies the build wrote beside it, when it wrote them. */
interface Asset {
  type: string;
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

/**
 * Every file of the build's assets/ folder, read once at start (a few MB with their copies): a page opened
 * by URL asks for about thirty at once, and sending each from memory took a third of the CPU and of the time
 * that opening, checking and streaming each file from disk took, on the thread that answers the page's
 * data too. Keyed by the path below assets/, exactly as built.
 */
function readAssets(root: string): Map<string, Asset> {
  const dir = resolve(root, 'assets');
  const assets = new Map<string, Asset>();
  if (!existsSync(dir)) return assets;
  const names = new Set(readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => statSync(resolve(dir, name)).isFile()));
  const copy = (name: string) => (names.has(name) ? readFileSync(resolve(dir, name)) : undefined);
  for (const name of names) {
    if (name.endsWith('.br') || name.endsWith('.gz')) continue;
    const br = copy(`${name}.br`);
    const gzip = copy(`${name}.gz`);
    assets.set(name.split(sep).join('/'), {
      type: ASSET_TYPES[extname(name)] ?? 'application/octet-stream',
      body: readFileSync(resolve(dir, name)),
      ...(br ? { br } : {}),
      ...(gzip ? { gzip } : {}),
    });
  }
  return assets;
}

/** Sends an asset in the encoding the browser prefers among those built (brotli, gzip, or none). */
function sendAsset(asset: Asset, req: FastifyRequest, reply: FastifyReply) {
  const offered = [...(asset.br ? ['br'] : []), ...(asset.gzip ? ['gzip'] : [])];
  const encoding = offered.length ? negotiate(req.headers['accept-encoding'] ?? '', offered) : null;
  reply.header('cache-control', IMMUTABLE_CACHE).header('vary', 'accept-encoding').type(asset.type);
  if (encoding === 'br' || encoding === 'gzip') return reply.header('content-encoding', encoding).send(encoding === 'br' ? asset.br : asset.gzip);
  return reply.send(asset.body);
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
 * browser that accepts them, so no request spends time compressing. The hashed assets are sent from memory
 * (readAssets); the few other files of the build from disk.
 */
export async function registerStaticClient(
  app: FastifyInstance,
  dir: string,
  answers: FirstAnswersSource = firstAnswers,
  paint?: FirstPaint | null,
): Promise<void> {
  const root = resolve(dir);
  const hasClient = existsSync(resolve(root, 'index.html'));
  // `paint` undefined: the build's renderer, if it has one; null: none.
  const painter = paint === null || !hasClient ? undefined : (paint ?? (await loadFirstPaint(root, app.log)));
  const sendShell = hasClient
    ? shellFor(readFileSync(resolve(root, 'index.html'), 'utf8'), readRoutePreloads(root), answers, painter)
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
      globIgnore: ['**/*.br', '**/*.gz', 'assets/**'],
      setHeaders(reply, filePath) {
        reply.header('cache-control', filePath.includes('/assets/') ? IMMUTABLE_CACHE : SHELL_CACHE);
      },
    });
    const assets = readAssets(root);
    app.get('/assets/*', (req, reply) => {
      const asset = assets.get((req.params as { '*': string })['*']);
      return asset ? sendAsset(asset, req, reply) : reply.callNotFound();
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

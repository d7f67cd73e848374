/**
 * The floor of the page-load benchmark (bench/page-load.ts): each route's page as the console's server painted
 * it, with every script and module preload taken out, served as a static file beside the build's assets (the
 * precompressed copy when the browser takes it, as the console serves them) by a server that does nothing else.
 * What the browser itself spends on showing that page in a new tab: the console's cold time can come near it,
 * not under it. In a process of its own, as the consoles are, so it does not share an event loop with the
 * browser driver:
 *   tsx bench/page-load-floor.ts <port> <distDir> <pagesJsonFile>   (pages: { [path]: html })
 * Prints one line with its URL, then serves until killed.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';

const [port, dist, pagesFile] = process.argv.slice(2);
if (!port || !dist || !pagesFile) {
  console.error('usage: tsx bench/page-load-floor.ts <port> <distDir> <pagesJsonFile>');
  process.exit(2);
}
const pages = JSON.parse(readFileSync(pagesFile, 'utf8')) as Record<string, string>;
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.json': 'application/json' };

const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  const page = pages[path];
  if (page !== undefined) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
    res.end(page);
    return;
  }
  const file = join(dist, normalize(path).replace(/^(\.\.[/\\])+/, ''));
  if (!file.startsWith(dist) || !existsSync(file) || extname(file) === '') {
    res.writeHead(404).end();
    return;
  }
  const headers: Record<string, string> = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'public, max-age=31536000, immutable' };
  const brotli = /\bbr\b/.test(String(req.headers['accept-encoding'] ?? '')) && existsSync(`${file}.br`);
  if (brotli) headers['content-encoding'] = 'br';
  res.writeHead(200, headers);
  res.end(readFileSync(brotli ? `${file}.br` : file));
});
server.listen(Number(port), '127.0.0.1', () => console.log(`http://localhost:${port}`));
process.once('SIGTERM', () => process.exit(0));

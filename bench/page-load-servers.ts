/**
 * Servers for the page-load benchmark, in a process of their own so they do not share an event loop
 * with the browser driver:
 *   tsx bench/page-load-servers.ts <afterPort> <afterDir> [<beforePort> <beforeDir>]
 * One local stack (in memory, in a thread of its own as `npm start` runs it) and one console per built client, each serving its directory and
 * talking to that stack. Prints one JSON line with the URLs, then serves until killed.
 */
import { buildApp } from '../server/app';
import { loadConfig, localProjectApiUrl } from '../server/config';
import { createDeps } from '../server/deps';
import { createLogger } from '../server/logger';
import { startEmbeddedStack } from '../server/embedded-stack';

const [afterPort, afterDir, beforePort, beforeDir] = process.argv.slice(2);
if (!afterPort || !afterDir) {
  console.error('usage: tsx bench/page-load-servers.ts <afterPort> <afterDir> [<beforePort> <beforeDir>]');
  process.exit(2);
}

const logger = createLogger('warn');
const afterUrl = `http://localhost:${afterPort}`;
// In its own thread, as `npm start` runs it: its database work does not hold up the consoles' event loop.
const stack = await startEmbeddedStack({ options: { port: 0, uiUrl: afterUrl, passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 } }, logLevel: 'warn', tracing: undefined }, logger);

async function serve(port: string, staticDir: string): Promise<string> {
  const publicUrl = `http://localhost:${port}`;
  const base = loadConfig({ LOG_LEVEL: 'warn', PORT: port, PUBLIC_URL: publicUrl, HOST: '127.0.0.1' });
  const config = {
    ...base,
    backofficeUrl: stack.url,
    orySdkUrl: stack.url,
    projectApiUrl: localProjectApiUrl(stack.url),
    analyticsUrl: stack.url,
  };
  const app = await buildApp(createDeps(config, logger, { staticDir }));
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  return publicUrl;
}

const urls: Record<string, string> = { stack: stack.url, after: await serve(afterPort, afterDir) };
if (beforePort && beforeDir) urls['before'] = await serve(beforePort, beforeDir);
console.log(JSON.stringify(urls));

process.once('SIGTERM', () => process.exit(0));

/**
 * Servers for the page-load benchmark, in a process of their own so they do not share an event loop
 * with the browser driver:
 *   tsx bench/page-load-servers.ts <afterPort> <afterDir> [<beforePort> <beforeDir> [<beforeRoot>]]
 * One local stack (in memory, in a thread of its own as `npm start` runs it) and one console per built client,
 * each serving its directory and talking to that stack. The "before" console runs the server of `beforeRoot`
 * (a checkout of the "before" commit) when one is given, so that a change to the server is measured too;
 * otherwise this tree's. Prints one JSON line with the URLs, then serves until killed.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as afterApp from '../server/app';
import * as afterConfig from '../server/config';
import * as afterDeps from '../server/deps';
import { createLogger } from '../server/logger';
import { startEmbeddedStack } from '../server/embedded-stack';

const [afterPort, afterDir, beforePort, beforeDir, beforeRoot] = process.argv.slice(2);
if (!afterPort || !afterDir) {
  console.error('usage: tsx bench/page-load-servers.ts <afterPort> <afterDir> [<beforePort> <beforeDir> [<beforeRoot>]]');
  process.exit(2);
}

/** The console's server modules the benchmark builds a console with, from this tree or another checkout. */
interface ServerModules {
  app: Pick<typeof afterApp, 'buildApp'>;
  config: Pick<typeof afterConfig, 'loadConfig' | 'localProjectApiUrl'>;
  deps: Pick<typeof afterDeps, 'createDeps'>;
}

const serverOf = async (root: string): Promise<ServerModules> => {
  const load = (file: string) => import(pathToFileURL(join(root, 'server', file)).href);
  return { app: await load('app.ts'), config: await load('config.ts'), deps: await load('deps.ts') };
};

const logger = createLogger('warn');
const afterUrl = `http://localhost:${afterPort}`;
// In its own thread, as `npm start` runs it: its database work does not hold up the consoles' event loop.
const stack = await startEmbeddedStack({ options: { port: 0, uiUrl: afterUrl, passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 } }, logLevel: 'warn', tracing: undefined }, logger);

async function serve(port: string, staticDir: string, server: ServerModules): Promise<string> {
  const publicUrl = `http://localhost:${port}`;
  const base = server.config.loadConfig({ LOG_LEVEL: 'warn', PORT: port, PUBLIC_URL: publicUrl, HOST: '127.0.0.1' });
  const config = {
    ...base,
    backofficeUrl: stack.url,
    orySdkUrl: stack.url,
    projectApiUrl: server.config.localProjectApiUrl(stack.url),
    analyticsUrl: stack.url,
  };
  const app = await server.app.buildApp(server.deps.createDeps(config, logger, { staticDir }));
  await app.listen({ port: Number(port), host: '127.0.0.1' });
  return publicUrl;
}

const thisTree: ServerModules = { app: afterApp, config: afterConfig, deps: afterDeps };
const urls: Record<string, string> = { stack: stack.url, after: await serve(afterPort, afterDir, thisTree) };
if (beforePort && beforeDir) urls['before'] = await serve(beforePort, beforeDir, beforeRoot ? await serverOf(beforeRoot) : thisTree);
console.log(JSON.stringify(urls));

process.once('SIGTERM', () => process.exit(0));

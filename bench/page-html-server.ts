/**
 * One side of bench/page-html.ts: the console of the checkout at `root` (this tree's, or the "before"
 * commit's), with the local stack of that same checkout embedded as `npm start` runs it (in a thread of its
 * own), serving the client built in `dist`; and a visitor signed up on it, with a workspace and a project.
 *   tsx bench/page-html-server.ts <root> <port> <dist>
 * Prints one JSON line ({ url, cookie, project, workspace }), then serves until killed.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as App from '../server/app';
import type * as Config from '../server/config';
import type * as Deps from '../server/deps';
import type * as EmbeddedStack from '../server/embedded-stack';
import type * as Logger from '../server/logger';
import { registerUser } from '../server/test-support/users';

const [root, port, dist] = process.argv.slice(2);
if (!root || !port || !dist) {
  console.error('usage: tsx bench/page-html-server.ts <root> <port> <dist>');
  process.exit(2);
}
const load = <T>(file: string): Promise<T> => import(pathToFileURL(join(root, 'server', file)).href) as Promise<T>;
const [{ buildApp }, { loadConfig, localProjectApiUrl }, { createDeps }, { startEmbeddedStack }, { createLogger }] = await Promise.all([
  load<typeof App>('app.ts'),
  load<typeof Config>('config.ts'),
  load<typeof Deps>('deps.ts'),
  load<typeof EmbeddedStack>('embedded-stack.ts'),
  load<typeof Logger>('logger.ts'),
]);

const logger = createLogger('warn');
const publicUrl = `http://localhost:${port}`;
const stack = await startEmbeddedStack({ options: { port: 0, uiUrl: publicUrl, passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 } }, logLevel: 'warn', tracing: undefined }, logger);
const base = loadConfig({ LOG_LEVEL: 'warn', PORT: port, PUBLIC_URL: publicUrl, HOST: '127.0.0.1' });
const config = { ...base, backofficeUrl: stack.url, orySdkUrl: stack.url, projectApiUrl: localProjectApiUrl(stack.url), analyticsUrl: stack.url };
const app = await buildApp(createDeps(config, logger, { staticDir: dist }));
await app.listen({ port: Number(port), host: '127.0.0.1' });

const user = await registerUser(stack.url, {});
async function create(path: string, body: unknown): Promise<{ id: string }> {
  const res = await fetch(stack.url + path, { method: 'POST', headers: { cookie: user.cookie, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
  if (res.status !== 201) throw new Error(`POST ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: string };
}
const workspace = await create('/workspaces', { name: 'Bench' });
const project = await create('/projects', { name: 'Bench project', environment: 'dev', workspace_id: workspace.id });
console.log(JSON.stringify({ url: publicUrl, cookie: user.cookie, project: project.id, workspace: workspace.id }));
process.once('SIGTERM', () => process.exit(0));

/**
 * The servers of bench/page-trace.ts: one local stack (in memory, in its own thread) and one console serving
 * `dir`, in one process, recording every request the console answers and every upstream call it makes
 * (node:http diagnostics channels); GET /__events hands them over and forgets them.
 *   tsx bench/page-trace-servers.ts <port> <dir>
 */
import diagnostics from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../server/app';
import { loadConfig, localProjectApiUrl } from '../server/config';
import { createDeps } from '../server/deps';
import { createLogger } from '../server/logger';
import { startEmbeddedStack } from '../server/embedded-stack';

const [port, dir] = process.argv.slice(2) as [string, string];
const T0 = performance.timeOrigin;
const now = () => T0 + performance.now();
const events: object[] = [];
const starts = new WeakMap<object, number>();
diagnostics.subscribe('http.client.request.start', (m: any) => starts.set(m.request, now()));
diagnostics.subscribe('http.client.response.finish', (m: any) => {
  const s = starts.get(m.request);
  events.push({ kind: 'upstream', start: s, end: now(), method: m.request.method, path: m.request.path });
});
const sstarts = new WeakMap<object, number>();
diagnostics.subscribe('http.server.request.start', (m: any) => sstarts.set(m.response, now()));
diagnostics.subscribe('http.server.response.finish', (m: any) => {
  const s = sstarts.get(m.response);
  events.push({ kind: 'server', port: m.request.socket?.localPort, start: s, end: now(), method: m.request.method, url: m.request.url });
});

const logger = createLogger('warn');
const publicUrl = `http://localhost:${port}`;
// In its own thread, as npm start runs it (its own requests are then not recorded, the console's calls to it are).
const stack = await startEmbeddedStack({ options: { port: 0, uiUrl: publicUrl, passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 } }, logLevel: 'warn', tracing: undefined }, logger);
const base = loadConfig({ LOG_LEVEL: 'warn', PORT: port, PUBLIC_URL: publicUrl, HOST: '127.0.0.1' });
const config = { ...base, backofficeUrl: stack.url, orySdkUrl: stack.url, projectApiUrl: localProjectApiUrl(stack.url), analyticsUrl: stack.url };
const app = await buildApp(createDeps(config, logger, { staticDir: dir }));
app.get('/__events', async () => events.splice(0));
await app.listen({ port: Number(port), host: '127.0.0.1' });
console.log(JSON.stringify({ url: publicUrl, stack: stack.url }));
process.once('SIGTERM', () => process.exit(0));

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The process's Prometheus metrics: the console's procedures, the embedded local stack's queues and database
 * pool, and Node's own (memory, event-loop lag, GC). One registry per process, served on its own port
 * (`METRICS_PORT`) so that the public port never exposes them.
 */
export const metrics = new Registry();
collectDefaultMetrics({ register: metrics });

/** Every tRPC procedure call: its path, query or mutation, and the outcome (`ok` or the tRPC error code). */
export const procedureDuration = new Histogram({
  name: 'console_procedure_duration_seconds',
  help: 'Time to answer one tRPC procedure call, by procedure, type and outcome',
  labelNames: ['procedure', 'type', 'outcome'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [metrics],
});

/**
 * A gauge read when Prometheus scrapes (`read` answers the current value, or values by label). Registering the
 * same name twice (a second local stack in one process, as tests start) replaces the reader.
 */
export function gaugeOnScrape(name: string, help: string, read: () => Promise<number | Record<string, number>>, labelName?: string): void {
  metrics.removeSingleMetric(name);
  new Gauge({
    name,
    help,
    labelNames: labelName ? [labelName] : [],
    registers: [metrics],
    async collect() {
      const value = await read().catch(() => undefined);
      if (value === undefined) return;
      if (typeof value === 'number') this.set(value);
      else for (const [label, n] of Object.entries(value)) this.set({ [labelName ?? 'state']: label }, n);
    },
  });
}

/**
 * Only the series whose names start with `prefix` (with their HELP and TYPE lines) of an exposition: what
 * another registry of the process adds, without a second copy of Node's own figures.
 */
export function seriesWithPrefix(text: string, prefix: string): string {
  return text
    .split('\n')
    .filter((line) => line.startsWith(prefix) || line.startsWith(`# HELP ${prefix}`) || line.startsWith(`# TYPE ${prefix}`))
    .map((line) => `${line}\n`)
    .join('');
}

/**
 * Serves GET /metrics in Prometheus' text format on `port` (0: any free one); `more` adds series kept
 * elsewhere in the process (the embedded local stack's thread).
 */
export async function serveMetrics(port: number, host: string, more?: () => Promise<string>): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    Promise.all([metrics.metrics(), more?.() ?? '']).then(
      ([text, extra]) => res.writeHead(200, { 'content-type': metrics.contentType }).end(extra ? `${text.replace(/\n*$/, '\n')}${extra}` : text),
      () => res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return { url: `http://${shown}:${bound}/metrics`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

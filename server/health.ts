import type { FastifyInstance } from 'fastify';

const READY_TIMEOUT_MS = 2_000;

/** Any HTTP answer means the upstream is reachable; only a connection failure or silence is not. */
async function reachable(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { method: 'GET', signal: AbortSignal.timeout(READY_TIMEOUT_MS), redirect: 'manual' });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

export function registerHealth(app: FastifyInstance, upstreams: Record<string, string>): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const names = Object.keys(upstreams);
    const results = await Promise.all(names.map((name) => reachable(upstreams[name]!)));
    const status = Object.fromEntries(names.map((name, i) => [name, results[i] ? 'ok' : 'unreachable']));
    const ready = results.every(Boolean);
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', upstreams: status });
  });
}

import type { FastifyInstance } from 'fastify';

const READY_TIMEOUT_MS = 2_000;

/**
 * Asks the upstream's own readiness path (`/health/ready`, which Ory's services and the local stack serve; the
 * local stack's answers 5xx while its database cannot be reached). A 5xx, a connection failure or silence is
 * not ready; any other answer is (an upstream without that path answers 404 and is up).
 */
async function readiness(url: string): Promise<'ok' | 'not ready' | 'unreachable'> {
  try {
    const response = await fetch(`${url.replace(/\/+$/, '')}/health/ready`, { method: 'GET', signal: AbortSignal.timeout(READY_TIMEOUT_MS), redirect: 'manual' });
    await response.body?.cancel();
    return response.status < 500 ? 'ok' : 'not ready';
  } catch {
    return 'unreachable';
  }
}

export function registerHealth(app: FastifyInstance, upstreams: Record<string, string>): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    const names = Object.keys(upstreams);
    const results = await Promise.all(names.map((name) => readiness(upstreams[name]!)));
    const status = Object.fromEntries(names.map((name, i) => [name, results[i]]));
    const ready = results.every((result) => result === 'ok');
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', upstreams: status });
  });
}

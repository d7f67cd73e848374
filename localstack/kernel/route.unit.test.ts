import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkResponses, route, useZodValidation, type RouteContext } from './route';
import { createClock } from './clock';

const answer = z.object({ id: z.string(), count: z.number() });

/** A public GET reads no database: the context's db is never touched. */
const ctx = { db: null, resolveSession: async () => null, clock: createClock() } as unknown as RouteContext;

async function appAnswering(result: unknown) {
  const logged: string[] = [];
  const app = Fastify({
    logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } },
  });
  useZodValidation(app);
  route(app, ctx, { method: 'GET', url: '/things/:id', auth: 'public', response: answer, handler: async () => result });
  route(app, ctx, { method: 'GET', url: '/unchecked', auth: 'public', handler: async () => result });
  await app.ready();
  return { app, logged };
}

describe('route() response schema', () => {
  let close: (() => Promise<unknown>) | undefined;
  afterEach(async () => close?.());

  it('sends an answer that matches its schema', async () => {
    const { app } = await appAnswering({ id: 'a', count: 1 });
    close = () => app.close();
    const res = await app.inject({ method: 'GET', url: '/things/a' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 'a', count: 1 });
  });

  it('answers 500 and logs the route when the answer drifts from its schema', async () => {
    const { app, logged } = await appAnswering({ id: 'a', count: 'one' });
    close = () => app.close();
    const res = await app.inject({ method: 'GET', url: '/things/a' });
    expect(res.statusCode).toBe(500);
    const line = logged.find((l) => l.includes('does not match its response schema'));
    expect(line).toContain('GET /things/:id');
    expect(line).toContain('count');
  });

  it('leaves routes without a response schema unchecked', async () => {
    const { app } = await appAnswering({ id: 'a', count: 'one' });
    close = () => app.close();
    const res = await app.inject({ method: 'GET', url: '/unchecked' });
    expect(res.statusCode).toBe(200);
  });

  it('checks in development and tests only', () => {
    expect(checkResponses({ NODE_ENV: 'test' })).toBe(true);
    expect(checkResponses({ NODE_ENV: 'development' })).toBe(true);
    expect(checkResponses({ NODE_ENV: 'production', VITEST: 'true' })).toBe(true);
    expect(checkResponses({ NODE_ENV: 'production' })).toBe(false);
    expect(checkResponses({})).toBe(false);
  });
});

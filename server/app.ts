import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { AppDeps } from './deps';
import { registerHealth } from './health';
import { cspDirectives, registerCsrfGuard, registerNoStore } from './http-guards';
import { registerIngest } from './ingest';
import { registerOryProxy } from './ory-proxy';
import { closeRedis, connectRedis } from '../shared/redis';
import { registerTracing, tracingOptions } from '../shared/telemetry';
import { registerMutationLimit } from './rate-limit';
import { requestTimeoutOptions } from '../shared/request-timeout';
import { appRouter, type AppRouter } from './routers/_app';
import { registerStaticClient } from './static-client';
import { createContext } from './trpc/context';
import { SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS } from './trpc/errors';

/** Server-side cap of one batched tRPC call (the client's httpBatchLink uses maxItems 10). */
export const MAX_BATCH_SIZE = 10;
const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const backofficeUrl = deps.backoffice.http.baseUrl;
  const orySdkUrl = deps.ory.basePath;
  const app = Fastify({
    loggerInstance: deps.logger as unknown as FastifyBaseLogger,
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 2048 },
    ...requestTimeoutOptions(config.requestTimeoutMs),
    // With tracing on, the request lines are written inside each request's trace (shared/telemetry.ts).
    ...tracingOptions(),
    genReqId: (req) => {
      const incoming = req.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
  });
  await registerTracing(app, 'console');
  app.decorate('deps', deps);
  app.addHook('onClose', async () => deps.backoffice.http.close());
  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  await app.register(fastifyCookie);
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(config.publicUrl, config.projectApiUrl) },
    crossOriginEmbedderPolicy: false,
    hsts: config.publicUrl.startsWith('https://'),
  });
  registerCsrfGuard(app, config.publicOrigin);
  registerNoStore(app);
  const redis = config.redisUrl ? connectRedis(config.redisUrl, (message) => app.log.warn({ component: 'redis' }, `Redis unreachable: ${message}`)) : undefined;
  if (redis) app.addHook('onClose', async () => closeRedis(redis));
  await registerMutationLimit(app, config.mutationRateLimit, redis, config.exportRateLimit);

  const trpcOptions: FastifyTRPCPluginOptions<AppRouter>['trpcOptions'] = {
    router: appRouter,
    createContext,
    maxBatchSize: MAX_BATCH_SIZE,
    // A call refused because an upstream cannot answer now says when to try again.
    responseMeta: ({ errors }) =>
      errors.some((e) => e.code === 'SERVICE_UNAVAILABLE') ? { headers: { 'retry-after': String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS) } } : {},
    onError({ error, path, req }) {
      if (error.code === 'INTERNAL_SERVER_ERROR') req.log.error({ err: error.cause ?? error, path }, 'tRPC call failed');
    },
  };
  await app.register(fastifyTRPCPlugin, { prefix: '/api/trpc', trpcOptions });

  await registerOryProxy(app, { upstreamUrl: orySdkUrl });
  registerIngest(app, { analyticsUrl: config.analyticsUrl, consentRequired: config.analyticsConsentRequired });
  registerHealth(app, backofficeUrl === orySdkUrl ? { upstream: backofficeUrl } : { backoffice: backofficeUrl, ory: orySdkUrl });
  await registerStaticClient(app, deps.staticDir ?? 'client/dist', undefined, deps.firstPaint);
  return app;
}

/**
 * Stops accepting connections, lets in-flight requests finish (bounded), then runs the extra closers
 * (e.g. the local stack) in order.
 */
export async function closeGracefully(app: FastifyInstance, closers: (() => Promise<void>)[] = [], timeoutMs = 10_000): Promise<void> {
  const timer = setTimeout(() => {
    app.log.error('graceful shutdown timed out; exiting');
    process.exit(1);
  }, timeoutMs);
  timer.unref();
  try {
    await app.close();
    for (const close of closers) await close();
  } finally {
    clearTimeout(timer);
  }
}

import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig, localProjectApiUrl, type Config } from './config';
import { createLogger, type Logger } from './logger';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/** Flushes the spans and stops tracing: after everything else, so that the spans of the drain are sent too. */
let stopTracing: (() => Promise<void>) | undefined;

/** The embedded local stack's own metrics, when it runs (in its thread, with a registry of its own). */
let embeddedMetrics: (() => Promise<string>) | undefined;

/** Starts the local stack when no upstream is configured, then the app; `closers` collects what to stop. */
async function start(initial: Config, logger: Logger, closers: (() => Promise<void>)[], stopping: () => boolean): Promise<FastifyInstance | undefined> {
  let config = initial;
  if (config.tracing) {
    // Before the apps and the database pool exist: both are instrumented as they are built.
    const { startTracing } = await import('../shared/telemetry');
    stopTracing = await startTracing({ serviceName: config.tracing.serviceName, otlpTracesUrl: config.tracing.tracesUrl });
    logger.info({ url: config.tracing.tracesUrl }, `OpenTelemetry traces sent to ${config.tracing.tracesUrl}`);
  }
  if (!config.backofficeUrl && !config.orySdkUrl) {
    // In a thread of its own: its database work never holds up the console's event loop.
    const { startEmbeddedStack } = await import('./embedded-stack');
    const stack = await startEmbeddedStack(
      {
        options: {
          port: config.localstackPort,
          dataDir: config.dataDir,
          databaseUrl: config.databaseUrl,
          uiUrl: config.publicUrl,
          requestTimeoutMs: config.requestTimeoutMs,
          mailbox: config.localMailbox,
          mailboxSmtpPort: config.localSmtpPort,
          ...(config.redisUrl ? { redisUrl: config.redisUrl } : {}),
          ...(config.courierClaimTimeoutMs ? { courierClaimTimeoutMs: config.courierClaimTimeoutMs } : {}),
          localDnsPort: config.localDnsPort,
          ...(config.dnsServers?.length ? { dnsServers: config.dnsServers } : {}),
        },
        logLevel: config.logLevel,
        tracing: config.tracing,
      },
      logger,
    );
    embeddedMetrics = stack.metrics;
    closers.push(() => stack.close());
    config = {
      ...config,
      backofficeUrl: stack.url,
      orySdkUrl: stack.url,
      projectApiUrl: config.projectApiUrl ?? localProjectApiUrl(stack.url),
      analyticsUrl: config.analyticsUrl ?? stack.url,
    };
    logger.info({ url: stack.url }, 'embedded local stack started (no upstream URL configured)');
    // For local development only, like the mailbox: a SAML identity provider on 127.0.0.1 that vouches for anyone.
    if (config.localMailbox) {
      const { startSamlTestIdp } = await import('../localstack/saml-idp/idp');
      const idp = await startSamlTestIdp();
      closers.push(() => idp.close());
      logger.info({ metadataUrl: idp.metadataUrl }, 'local SAML identity provider started (this machine only)');
    }
  } else if (!config.backofficeUrl || !config.orySdkUrl) {
    logger.fatal('Set both BACKOFFICE_URL and ORY_SDK_URL, or neither to use the embedded local stack');
    process.exit(1);
  }
  if (stopping()) return undefined;
  if (config.metricsPort !== undefined) {
    const { serveMetrics } = await import('../shared/metrics');
    const served = await serveMetrics(config.metricsPort, config.host, embeddedMetrics);
    closers.push(served.close);
    logger.info({ url: served.url }, `Prometheus metrics at ${served.url}`);
  }
  const [{ buildApp }, { createDeps }] = await Promise.all([import('./app'), import('./deps')]);
  const app = await buildApp(createDeps(config, logger));
  await app.listen({ port: config.port, host: config.host });
  logger.info({ url: config.publicUrl }, `console listening on ${config.host}:${config.port}; open ${config.publicUrl}`);
  return app;
}

function main(): void {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const closers: (() => Promise<void>)[] = [];
  let stopping = false;
  // The signal handlers come first, before the start-up line and anything heavy: a SIGTERM during a slow start
  // (a fresh PGlite data directory) waits for the start to settle and then closes what was started, never
  // killing it mid-write. Until a handler is installed, a SIGTERM would end the process on the spot, and a
  // supervisor may send one as soon as it reads the start-up line.
  let started: Promise<FastifyInstance | undefined> = Promise.resolve(undefined);
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    started
      .catch(() => undefined)
      .then(async (app) => {
        if (app) await (await import('./app')).closeGracefully(app, closers);
        else for (const close of closers) await close();
        await stopTracing?.();
      })
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  logger.info({ pid: process.pid }, 'starting the console');
  started = start(config, logger, closers, () => stopping);
  started.catch((error: unknown) => {
    logger.fatal({ err: error }, 'start-up failed');
    process.exit(1);
  });
}

main();

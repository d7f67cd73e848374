import { buildApp, closeGracefully } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { createDeps } from './deps';
import { createLogger } from './logger';

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = createLogger(config.logLevel);
  const closers: (() => Promise<void>)[] = [];

  if (!config.backofficeUrl && !config.orySdkUrl) {
    const { startLocalStack } = await import('./localstack/index');
    const stack = await startLocalStack({
      port: config.localstackPort,
      dataDir: config.dataDir,
      databaseUrl: config.databaseUrl,
      uiUrl: config.publicUrl,
      logger: logger.child({ component: 'localstack' }),
    });
    closers.push(() => stack.close());
    config = { ...config, backofficeUrl: stack.url, orySdkUrl: stack.url };
    logger.info({ url: stack.url }, 'embedded local stack started (no upstream URL configured)');
  } else if (!config.backofficeUrl || !config.orySdkUrl) {
    logger.fatal('Set both BACKOFFICE_URL and ORY_SDK_URL, or neither to use the embedded local stack');
    process.exit(1);
  }

  const app = await buildApp(createDeps(config, logger));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    closeGracefully(app, closers).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  logger.info({ url: config.publicUrl }, `console listening on ${config.host}:${config.port}; open ${config.publicUrl}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

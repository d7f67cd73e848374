import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type Config } from '../config';
import { createCaches, createDeps, type AppDeps } from '../deps';
import { createLogger } from '../logger';
import { startLocalStack, type LocalStack } from '../localstack/index';
import { appRouter } from '../routers/_app';
import { createInnerContext } from '../trpc/context';

export const TEST_PUBLIC_URL = 'http://localhost:3000';

/** A config for tests: upstream URLs given, quiet logs (LOG_LEVEL overrides), short timeout when asked. */
export function testConfig(upstreamUrl: string, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' }),
    backofficeUrl: upstreamUrl,
    orySdkUrl: upstreamUrl,
    ...overrides,
  };
}

export function testDeps(upstreamUrl: string, overrides: Partial<Config> = {}, deps: Partial<AppDeps> = {}): AppDeps {
  const config = testConfig(upstreamUrl, overrides);
  return createDeps(config, createLogger(config.logLevel), { caches: createCaches(), ...deps });
}

/** A router caller acting with the given Cookie header (or signed out). */
export function callerFor(deps: AppDeps, cookie?: string) {
  return appRouter.createCaller(createInnerContext({ deps, cookie }));
}

export interface TestStack {
  stack: LocalStack;
  url: string;
  dataDir: string | undefined;
  close(): Promise<void>;
}

/** A real local stack on a random port with a fresh database (in memory, or in a fresh temp dir). */
export async function startTestStack(opts: { persistent?: boolean; dataDir?: string } = {}): Promise<TestStack> {
  const dataDir = opts.dataDir ?? (opts.persistent ? await mkdtemp(join(tmpdir(), 'console-test-')) : undefined);
  const stack = await startLocalStack({
    port: 0,
    host: '127.0.0.1',
    uiUrl: TEST_PUBLIC_URL,
    passwordHash: { memoryCost: 1024, timeCost: 1, parallelism: 1 },
    logger: createLogger(process.env.LOG_LEVEL === undefined ? 'silent' : (process.env.LOG_LEVEL as 'info')),
    ...(dataDir ? { dataDir } : {}),
  });
  return { stack, url: stack.url, dataDir, close: () => stack.close() };
}

export async function removeDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

import { TRPCError } from '@trpc/server';
import { expect } from 'vitest';
import { loadConfig, localProjectApiUrl, type Config } from '../config';
import { createCaches, createDeps, type AppDeps } from '../deps';
import { createLogger } from '../logger';
import type { LocalStack } from '../../localstack/index';
import { createCaller } from '../routers/_app';
import { createInnerContext } from '../trpc/context';
import { startTestStack as startLocalTestStack, TEST_UI_URL, type DurableStore } from './stack';

export const TEST_PUBLIC_URL = TEST_UI_URL;

/** A config for tests: upstream URLs given, quiet logs (LOG_LEVEL overrides), short timeout when asked. */
export function testConfig(upstreamUrl: string, overrides: Partial<Config> = {}): Config {
  return {
    ...loadConfig({ PUBLIC_URL: TEST_PUBLIC_URL, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent' }),
    backofficeUrl: upstreamUrl,
    orySdkUrl: upstreamUrl,
    // As main.ts does with the embedded local stack: each project's data plane under the same server.
    projectApiUrl: localProjectApiUrl(upstreamUrl),
    ...overrides,
  };
}

export function testDeps(upstreamUrl: string, overrides: Partial<Config> = {}, deps: Partial<AppDeps> = {}): AppDeps {
  const config = testConfig(upstreamUrl, overrides);
  return createDeps(config, createLogger(config.logLevel), { caches: createCaches(), ...deps });
}

/** A router caller acting with the given Cookie header (or signed out). */
export function callerFor(deps: AppDeps, cookie?: string) {
  return createCaller(createInnerContext({ deps, cookie }));
}

export interface TestStack {
  stack: LocalStack;
  url: string;
  close(): Promise<void>;
}

/**
 * A real local stack on a random port with a fresh database (PGlite in memory, or a fresh schema of
 * DATABASE_URL), or on a DurableStore that a restart test reuses.
 */
export async function startTestStack(opts: { store?: DurableStore } = {}): Promise<TestStack> {
  const stack = await startLocalTestStack(opts.store?.options ?? {});
  return { stack, url: stack.url, close: () => stack.close() };
}

/** Awaits a procedure call that must fail, and answers its TRPCError (the test fails if it succeeds). */
export async function rejection(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

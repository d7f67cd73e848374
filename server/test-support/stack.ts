import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startLocalStack, type LocalStack, type LocalStackOptions } from '../../localstack/index';
import { dropSchema, freshSchemaName, lendPglite, lendSchema } from './database-pool';
import { recordWireAnswer } from './wire-recorder';

export type { LocalStack };

/** The console origin the test stacks accept for redirects and return_to. */
export const TEST_UI_URL = 'http://localhost:3000';
/** The lowest argon2id cost: integration tests are about flows and data, not password hashing. */
export const FAST_HASH = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/**
 * A store that outlives a stack, for restart tests: a fresh PostgreSQL schema when DATABASE_URL is set,
 * else a PGlite data directory in a temp folder. `dispose` removes it.
 */
export interface DurableStore {
  options: Pick<LocalStackOptions, 'dataDir' | 'databaseUrl' | 'dbSchema'>;
  dispose(): Promise<void>;
}

export async function createDurableStore(): Promise<DurableStore> {
  const databaseUrl = process.env.DATABASE_URL;
  if (databaseUrl) {
    const dbSchema = freshSchemaName();
    return { options: { databaseUrl, dbSchema }, dispose: () => dropSchema(databaseUrl, dbSchema) };
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'console-test-'));
  return { options: { dataDir }, dispose: () => rm(dataDir, { recursive: true, force: true }) };
}

/**
 * A real local stack on a random port with a fresh database: in-memory PGlite, or a fresh schema of
 * DATABASE_URL when that is set, so the same suite runs on both. Both come from a pool (database-pool.ts):
 * emptied by the stack's close for the next stack. Options given (a data directory, a schema of a DurableStore)
 * are used as they are and kept on close. Every answer is checked against Ory's OpenAPI (wire-recorder.ts); a
 * mismatch fails the test that caused it.
 */
export async function startTestStack(opts: LocalStackOptions = {}): Promise<LocalStack> {
  const databaseUrl = process.env.DATABASE_URL;
  const ownDatabase = !opts.dataDir && !opts.dbSchema && !opts.databaseUrl && !opts.database;
  const schema = ownDatabase && databaseUrl ? lendSchema(databaseUrl) : undefined;
  const database = ownDatabase && !databaseUrl ? await lendPglite() : undefined;
  let stack: LocalStack;
  try {
    stack = await startLocalStack({
      port: 0,
      host: '127.0.0.1',
      uiUrl: TEST_UI_URL,
      passwordHash: FAST_HASH,
      logger: pino({ level: process.env.LOG_LEVEL ?? 'silent' }),
      // Tests read recovery and verification codes from the mailbox.
      mailbox: true,
      onAnswer: recordWireAnswer,
      ...(schema ? { databaseUrl, dbSchema: schema.name } : {}),
      ...(database ? { database } : {}),
      ...opts,
    });
    await schema?.opened(stack.db);
  } catch (err) {
    await database?.close();
    await schema?.giveBack().catch(() => undefined);
    throw err;
  }
  // A suite's teardown never waits on a request nobody awaits: after a while its connection is cut, and the
  // request is named so that the test that left it can be found.
  const close = (options?: Parameters<LocalStack['close']>[0]) =>
    stack.close({
      graceMs: TEARDOWN_GRACE_MS,
      onCut: (inFlight) => console.error(`A test stack closed with requests still in flight, cut after ${TEARDOWN_GRACE_MS} ms: ${inFlight.join(', ') || '(none: idle connections)'}`),
      ...options,
    });
  if (!schema) return { ...stack, close };
  let closing: Promise<void> | null = null;
  return {
    ...stack,
    close(options) {
      closing ??= (async () => {
        await close(options);
        await schema.giveBack();
      })();
      return closing;
    },
  };
}

/** How long a test stack's close lets requests in flight finish before it cuts their connections. */
const TEARDOWN_GRACE_MS = 10_000;

/**
 * Runs the courier's delivery passes until `check(await read())` passes, at most `passes` times (a message
 * abandoned after n failed dispatches needs n passes), and answers the value it accepted; otherwise throws
 * what `check` last threw. Each pass is started here: nothing waits for the courier's poll timer.
 */
export async function deliverUntil<T>(stack: Pick<LocalStack, 'courier'>, read: () => Promise<T>, check: (value: T) => void, passes = 6): Promise<T> {
  let failure: unknown;
  for (let pass = 0; pass < passes; pass += 1) {
    await stack.courier.flush();
    const value = await read();
    try {
      check(value);
      return value;
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}

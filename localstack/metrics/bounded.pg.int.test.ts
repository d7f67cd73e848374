import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../db/postgres';
import type { Db } from '../db/types';
import { OryError } from '../kernel/errors';
import { withStatementTimeout } from './bounded';

// Collected only when DATABASE_URL is set (see vitest.config.ts): PGlite has no statement timeout.
const databaseUrl = process.env.DATABASE_URL!;

describe('the event query deadline on PostgreSQL', () => {
  let db: Db;
  beforeAll(async () => {
    db = await openPostgres(databaseUrl);
  });
  afterAll(async () => {
    await db?.close();
  });

  it('cancels a statement past the deadline and answers 400, leaving other transactions without a timeout', async () => {
    const timeout = async () => (await db.tx((q) => q.query<{ statement_timeout: string }>('SHOW statement_timeout')))[0]!.statement_timeout;
    const before = await timeout();
    const started = Date.now();
    const refused = await db.tx((q) => withStatementTimeout(q, 100, () => q.query('SELECT pg_sleep(20)'))).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OryError);
    expect((refused as OryError).status).toBe(400);
    expect((refused as OryError).message).toMatch(/ran too long/);
    expect(Date.now() - started).toBeLessThan(10_000);
    // SET LOCAL ended with its transaction: the next one has the server's default again.
    expect(await timeout()).toBe(before);
  });

  // PostgreSQL spends a while compiling such a pattern before it gives up (1.6 s at load 22 on two cores; the
  // former, deeper pattern took 11 s): the deadline here is generous, so that this test sees the compiler's
  // refusal and not the timeout, which the test above covers.
  it('answers a pattern the database finds too complex with 400, not 500', { timeout: 90_000 }, async () => {
    const refused = await db
      .tx((q) => withStatementTimeout(q, 60_000, () => q.query(`SELECT 'aaa' ~ $1 AS m`, ['(a{1,255}){1,255}'])))
      .catch((e: unknown) => e);
    expect((refused as OryError).status).toBe(400);
    expect((refused as OryError).message).toMatch(/too complex/);
  });
});

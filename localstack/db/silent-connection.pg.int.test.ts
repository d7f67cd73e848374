import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startPgRelay, type PgRelay } from '../../server/test-support/pg-relay';
import { isConnectionError } from './errors';
import { applicationName, openPostgres } from './postgres';
import type { Db } from './types';

// Collected only when DATABASE_URL is set (see vitest.config.ts): PGlite has no connections to lose.
const databaseUrl = process.env.DATABASE_URL!;

describe('PostgreSQL connections that died without the pool being told', () => {
  let admin: pg.Client;
  let relay: PgRelay;
  let db: Db | undefined;
  const schema = `t_${randomBytes(6).toString('hex')}`;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
  });
  afterEach(async () => {
    await db?.close();
    await relay?.close();
  });
  afterAll(async () => {
    await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end();
  });

  it('runs a transaction whose BEGIN met a dead connection on a fresh one, and still closes', async () => {
    relay = await startPgRelay(databaseUrl);
    db = await openPostgres(relay.url, schema);
    await db.tx((q) => q.query('SELECT 1'));
    expect(db.poolStats?.()).toMatchObject({ total: 1, idle: 1 });
    const before = relay.opened;

    relay.silence();
    const [row] = await db.tx((q) => q.query<{ n: number }>('SELECT 2 AS n'));
    expect(row!.n).toBe(2);
    // The dead connection was tried, given back as broken, and the transaction ran on a new one.
    expect(relay.opened).toBe(before + 1);
    expect(db.poolStats?.()).toMatchObject({ total: 1, idle: 1 });

    // The pool lends out nothing any more, so its close finishes (it used to wait for the dead connection).
    await db.close();
  });

  it('ends a connection whose statement never returns when closing, and the statement fails', async () => {
    relay = await startPgRelay(databaseUrl);
    db = await openPostgres(relay.url, schema, { closeGraceMs: 200 });
    const stuck = db.tx((q) => q.query('SELECT pg_sleep(3600)')).catch((err: unknown) => err);
    const sleeping = async () =>
      (await admin.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1 AND query LIKE 'SELECT pg_sleep%'`, [applicationName(schema)])).rows[0]!.n;
    while ((await sleeping()) < 1) {
      // Polls until the statement runs on the server.
    }
    // The server's answer can no longer reach the pool: the statement would wait for ever.
    relay.silence();

    await db.close();
    expect(isConnectionError(await stuck)).toBe(true);
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [applicationName(schema)]);
  });
});

import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { isConnectionError } from './errors';
import type { Orm } from '../kernel/queryable';
import type { Db, MigrationTarget, RawQueryable } from './types';
import { afterAuthorizationWrites } from '../kernel/authz-cache';

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** How long a request waits for a connection before it fails (503) rather than wait on a database that does not answer. */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * How long `close` lets connections still checked out finish their statement before it ends them. By then the
 * HTTP server and the workers have stopped, so a connection still out is one whose statement does not return
 * (a lock never granted, a server gone silent).
 */
const CLOSE_GRACE_MS = 5_000;

/** `application_name` of the stack's connections (with the schema, so one stack's backends can be told apart). */
export const applicationName = (schema?: string) => (schema ? `console-localstack:${schema}` : 'console-localstack');

const raw = (runner: Pick<pg.Pool | pg.PoolClient, 'query'>): RawQueryable => ({
  async query<T>(sql: string, params: unknown[] = []) {
    const res = await runner.query(sql, params);
    return res.rows as T[];
  },
});

/**
 * A `pg` Pool on `databaseUrl`. With `schema`, the schema is created if missing and every pooled
 * connection uses it as its search_path (tests get an isolated schema in a shared database).
 */
export async function openPostgres(databaseUrl: string, schemaName?: string, opts: { closeGraceMs?: number } = {}): Promise<Db & MigrationTarget> {
  if (schemaName !== undefined && !SCHEMA_NAME.test(schemaName)) {
    throw new Error(`Invalid PostgreSQL schema name "${schemaName}": use letters, digits and underscores.`);
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: applicationName(schemaName),
    ...(schemaName ? { options: `-c search_path=${schemaName}` } : {}),
  });
  // A connection that drops (backend terminated, server restart) emits `error` on its client, idle or
  // checked out. Unheard, that event would end the process; the query running on it fails instead
  // (answered 503 by the error handlers) and the pool replaces the connection.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  // The connections lent out now, so that a close can end those that never come back.
  const lent = new Set<pg.PoolClient>();
  pool.on('acquire', (client) => lent.add(client));
  pool.on('release', (_err, client) => lent.delete(client));
  pool.on('remove', (client) => lent.delete(client as pg.PoolClient));
  if (schemaName) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schemaName}"`);

  const orm: Orm = drizzle(pool);
  // One drizzle handle per pooled connection, for the transactions run on it.
  const onClient = new WeakMap<pg.PoolClient, Orm>();
  const ormOn = (client: pg.PoolClient): Orm => {
    let handle = onClient.get(client);
    if (!handle) onClient.set(client, (handle = drizzle(client)));
    return handle;
  };
  async function migrationTx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    let failed: unknown;
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      failed = err;
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      // A client whose statement failed is discarded rather than reused.
      client.release(failed instanceof Error ? failed : undefined);
    }
  }
  let closed: Promise<void> | null = null;
  return {
    kind: 'postgres',
    orm,
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    ...raw(pool),
    // A pooled connection can be dead before it is used (its backend terminated, the pool not yet told):
    // a transaction that fails to begin on it has done nothing and is begun again on another connection, a
    // few times (several idle ones may have died together). One that failed after its work started is never
    // retried; the request is answered 503.
    //
    // The connection is checked out here rather than by drizzle's pool transaction, which gives it back only
    // once BEGIN has succeeded: one whose BEGIN failed stayed lent out for good, and the pool's `end` (the
    // stack's close) waited for it forever. A connection that failed is given back as broken, so the pool
    // discards it.
    tx: (fn) => afterAuthorizationWrites(async () => {
      for (let attempt = 1; ; attempt++) {
        const client = await pool.connect();
        let began = false;
        let broken: Error | undefined;
        try {
          return await ormOn(client).transaction((t) => {
            began = true;
            return fn({ orm: t, ...raw(client) });
          });
        } catch (err) {
          if (isConnectionError(err)) broken = err instanceof Error ? err : new Error(String(err));
          if (began || attempt >= 5 || !broken) throw err;
        } finally {
          client.release(broken);
        }
      }
    }),
    migrationTx: (fn) =>
      migrationTx((client) =>
        fn({
          ...raw(client),
          exec: async (sql: string) => {
            await client.query(sql);
          },
        }),
      ),
    // Bounded: connections still lent out after the grace are ended (a statement running on one fails), so
    // nothing the database does or fails to do can hold the close.
    close() {
      closed ??= new Promise<void>((resolve) => {
        const cut = setTimeout(() => {
          void Promise.all([...lent].map((client) => client.end().catch(() => undefined))).then(() => resolve());
        }, opts.closeGraceMs ?? CLOSE_GRACE_MS);
        void pool
          .end()
          .catch(() => undefined)
          .finally(() => {
            clearTimeout(cut);
            resolve();
          });
      });
      return closed;
    },
  };
}

import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { isConnectionError } from './errors';
import type { Orm } from '../kernel/queryable';
import type { Db, MigrationTarget, RawQueryable } from './types';
import { afterAuthorizationWrites } from '../kernel/authz-cache';

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** `application_name` of the stack's connections (with the schema, so one stack's backends can be told apart). */
export const applicationName = (schema?: string) => (schema ? `console-localstack:${schema}` : 'console-localstack');

const raw = (runner: Pick<pg.Pool | pg.PoolClient, 'query'>): RawQueryable => ({
  async query<T>(sql: string, params: unknown[] = []) {
    const res = await runner.query(sql, params);
    return res.rows as T[];
  },
});

/** The pooled client a drizzle transaction runs on (drizzle's session keeps it as `client`). */
const clientOf = (tx: Orm) => (tx._.session as unknown as { client: pg.PoolClient }).client;

/**
 * A `pg` Pool on `databaseUrl`. With `schema`, the schema is created if missing and every pooled
 * connection uses it as its search_path (tests get an isolated schema in a shared database).
 */
export async function openPostgres(databaseUrl: string, schemaName?: string): Promise<Db & MigrationTarget> {
  if (schemaName !== undefined && !SCHEMA_NAME.test(schemaName)) {
    throw new Error(`Invalid PostgreSQL schema name "${schemaName}": use letters, digits and underscores.`);
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
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
  if (schemaName) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schemaName}"`);

  const orm: Orm = drizzle(pool);
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
    tx: (fn) => afterAuthorizationWrites(async () => {
      for (let attempt = 1; ; attempt++) {
        let began = false;
        try {
          return await orm.transaction((t) => {
            began = true;
            return fn({ orm: t, ...raw(clientOf(t)) });
          });
        } catch (err) {
          if (began || attempt >= 5 || !isConnectionError(err)) throw err;
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
    close() {
      closed ??= pool.end();
      return closed;
    },
  };
}

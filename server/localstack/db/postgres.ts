import pg from 'pg';
import type { Db, MigrationTarget, Queryable } from './types';

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/**
 * A `pg` Pool on `databaseUrl`. With `schema`, the schema is created if missing and every pooled
 * connection uses it as its search_path (tests get an isolated schema in a shared database).
 */
export async function openPostgres(databaseUrl: string, schema?: string): Promise<Db & MigrationTarget> {
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`Invalid PostgreSQL schema name "${schema}": use letters, digits and underscores.`);
  }
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client erroring (server restart) must not crash the process.
  pool.on('error', () => undefined);
  if (schema) await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);

  const wrap = (runner: Pick<pg.PoolClient, 'query'>): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const res = await runner.query(sql, params);
      return res.rows as T[];
    },
  });
  async function tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }
  let closed: Promise<void> | null = null;
  return {
    kind: 'postgres',
    ...wrap(pool),
    tx: (fn) => tx((client) => fn(wrap(client))),
    migrationTx: (fn) =>
      tx((client) =>
        fn({
          ...wrap(client),
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

import { migrate, readMigrations } from './migrate';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import type { Db, Migration } from './types';

export type { Db, Migration, Queryable } from './types';
export type { Orm } from '../kernel/queryable';

export interface OpenDbOptions {
  /** PGlite data directory (persistent). */
  dataDir?: string;
  /** PostgreSQL connection string; wins over dataDir. */
  databaseUrl?: string;
  /** PostgreSQL schema to create and use (only with databaseUrl). */
  schema?: string;
  /** Defaults to the drizzle-kit migrations in db/migrations. */
  migrations?: Migration[];
}

/**
 * Opens the local stack's database and applies pending migrations: PostgreSQL when
 * `databaseUrl` is given, else PGlite in `dataDir`, else in-memory PGlite.
 */
export async function openDb(opts: OpenDbOptions = {}): Promise<Db> {
  const migrations = opts.migrations ?? readMigrations();
  const db = opts.databaseUrl ? await openPostgres(opts.databaseUrl, opts.schema) : await openPglite(opts.dataDir, migrations);
  try {
    await migrate(db, migrations);
  } catch (err) {
    await db.close().catch(() => undefined);
    throw err;
  }
  const { orm, query, tx, close, kind, poolStats } = db;
  return { orm, query, tx, close, kind, ...(poolStats ? { poolStats } : {}) };
}

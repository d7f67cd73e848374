import type { Orm } from './schema';

/**
 * Something that runs queries: the database or one of its transactions.
 *
 * `orm` is the typed drizzle handle and the way to write new queries. `query` (raw SQL with `$n`
 * parameters) is transitional: it stays until the remaining query sites are converted area by area,
 * and both run on the same connection (inside `tx`, in the same transaction).
 */
export interface Queryable {
  readonly orm: Orm;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** The local stack's database: PGlite on disk / in memory, or a PostgreSQL server. */
export interface Db extends Queryable {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
  /** Connections of a PostgreSQL pool by state (PGlite has one connection and no pool). */
  poolStats?(): { total: number; idle: number; waiting: number };
}

/** A versioned migration; `sql` may hold several statements. */
export interface Migration {
  id: string;
  sql: string;
}

/** What the migrator needs from a driver: a transaction that can also run multi-statement SQL. */
export interface MigrationTarget {
  migrationTx<T>(fn: (q: RawQueryable & { exec(sql: string): Promise<void> }) => Promise<T>): Promise<T>;
}

/** Raw SQL only (the migrator runs before any table exists). */
export type RawQueryable = Pick<Queryable, 'query'>;

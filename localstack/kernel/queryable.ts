import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';

/**
 * A typed drizzle handle on the local stack's database, the same type for PGlite and node-postgres, and
 * for the database itself and for a transaction (a transaction is a database whose queries run in it).
 * Queries name their tables (each domain's `schema.ts`); the handle carries none, so the database layer
 * depends on no domain.
 */
export type Orm = PgDatabase<PgQueryResultHKT>;

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


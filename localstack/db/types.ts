import type { Queryable } from '../kernel/queryable';

export type { Db, Orm, Queryable } from '../kernel/queryable';

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

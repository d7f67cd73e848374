/** Anything that can run one parameterised SQL statement. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** The local stack's database: PGlite on disk / in memory, or a PostgreSQL server. */
export interface Db extends Queryable {
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  readonly kind: 'pglite' | 'postgres';
}

/** A versioned migration; `sql` may hold several statements. */
export interface Migration {
  id: string;
  sql: string;
}

/** What the migrator needs from a driver: a transaction that can also run multi-statement SQL. */
export interface MigrationTarget {
  migrationTx<T>(fn: (q: Queryable & { exec(sql: string): Promise<void> }) => Promise<T>): Promise<T>;
}

import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from './migrate';
import { emptyClusterTemplate, migratedClusterTemplate } from './pglite-template';
import type { Orm } from '../kernel/queryable';
import type { Db, Migration, MigrationTarget, RawQueryable } from './types';
import { afterAuthorizationWrites } from '../kernel/authz-cache';

/** Extensions the migrations create (pg_trgm: identity search), loaded into every cluster. */
const EXTENSIONS = { pg_trgm };

/**
 * A new cluster (in memory, or in a data directory that has none yet) starts from a cached template, which
 * takes a fraction of initdb's time: with `migrations` given, one that has them applied already (so the
 * migrator finds nothing to do), else an empty one. An existing data directory opens as it is.
 */
async function openCluster(dataDir?: string, migrations?: Migration[]): Promise<PGlite> {
  if (dataDir && existsSync(join(dataDir, 'PG_VERSION'))) return PGlite.create({ dataDir, extensions: EXTENSIONS });
  try {
    const template = migrations ? await migratedClusterTemplate(migrations, Object.keys(EXTENSIONS), () => buildMigrated(migrations)) : await emptyClusterTemplate();
    return await PGlite.create({ ...(dataDir ? { dataDir } : {}), loadDataDir: template, extensions: EXTENSIONS });
  } catch {
    // A damaged cached template must not stop anything: fall back to a plain initdb (the migrator then runs).
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    return PGlite.create({ ...(dataDir ? { dataDir } : {}), extensions: EXTENSIONS });
  }
}

/** An empty cluster with `migrations` applied, dumped for migratedClusterTemplate. */
async function buildMigrated(migrations: Migration[]): Promise<Blob> {
  const pg = await PGlite.create({ loadDataDir: await emptyClusterTemplate(), extensions: EXTENSIONS });
  try {
    await migrate(migrationTarget(pg), migrations);
    return await pg.dumpDataDir('gzip');
  } finally {
    await pg.close();
  }
}

const migrationTarget = (pg: PGlite): MigrationTarget => ({
  migrationTx: (fn) =>
    pg.transaction((t) =>
      fn({
        ...raw(t),
        exec: async (sql: string) => {
          await t.exec(sql);
        },
      }),
    ),
});

const raw = (runner: Pick<PGlite | Transaction, 'query'>): RawQueryable => ({
  async query<T>(sql: string, params: unknown[] = []) {
    const res = await runner.query<T>(sql, params as unknown[]);
    return res.rows;
  },
});

/** The PGlite transaction a drizzle transaction runs on (drizzle's session keeps it as `client`). */
const clientOf = (tx: Orm) => (tx._.session as unknown as { client: Transaction }).client;

type QueryRunner = Pick<PGlite | Transaction, 'query'>;

/**
 * The client drizzle runs on, minus the per-query `parsers` drizzle passes with every call (they keep
 * timestamps as text for drizzle to convert). PGlite merges such an option into its whole parser table on
 * each query, about a third of a simple read's cost; without it PGlite hands drizzle `Date`s, which
 * drizzle's timestamp columns take as they are. Transactions get the same wrapper.
 */
function withDefaultParsers<T extends QueryRunner & { transaction?: PGlite['transaction'] }>(client: T): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      if (prop === 'query') {
        return (sql: string, params?: unknown[], options?: Parameters<PGlite['query']>[2]) => {
          const { parsers: _parsers, ...rest } = options ?? {};
          return target.query(sql, params, rest);
        };
      }
      if (prop === 'transaction' && target.transaction) {
        return <R>(fn: (tx: Transaction) => Promise<R>) => target.transaction!((tx) => fn(withDefaultParsers(tx)));
      }
      const value = Reflect.get(target, prop, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * PGlite on disk in `dataDir` (created if missing), or in memory when `dataDir` is undefined. A new cluster
 * is empty, or has `migrations` applied already when they are given.
 */
export async function openPglite(dataDir?: string, migrations?: Migration[]): Promise<Db & MigrationTarget> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = await openCluster(dataDir, migrations);
  const orm: Orm = drizzle(withDefaultParsers(pg));
  let closed: Promise<void> | null = null;
  return {
    kind: 'pglite',
    orm,
    ...raw(pg),
    tx: (fn) => afterAuthorizationWrites(() => orm.transaction((t) => fn({ orm: t, ...raw(clientOf(t)) }))),
    ...migrationTarget(pg),
    close() {
      // close() checkpoints and flushes the data directory; calling it twice must not throw.
      closed ??= pg.closed ? Promise.resolve() : pg.close();
      return closed;
    },
  };
}

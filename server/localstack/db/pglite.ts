import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { emptyClusterTemplate } from './pglite-template';
import { schema, type Orm } from './schema';
import type { Db, MigrationTarget, RawQueryable } from './types';

/**
 * A new cluster (in memory, or in a data directory that has none yet) starts from the cached empty-cluster
 * template, which takes a fraction of initdb's time; an existing data directory opens as it is.
 */
async function openCluster(dataDir?: string): Promise<PGlite> {
  if (dataDir && existsSync(join(dataDir, 'PG_VERSION'))) return PGlite.create({ dataDir });
  try {
    return await PGlite.create({ ...(dataDir ? { dataDir } : {}), loadDataDir: await emptyClusterTemplate() });
  } catch {
    // A damaged cached template must not stop anything: fall back to a plain initdb.
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    return PGlite.create(dataDir ? { dataDir } : {});
  }
}

const raw = (runner: Pick<PGlite | Transaction, 'query'>): RawQueryable => ({
  async query<T>(sql: string, params: unknown[] = []) {
    const res = await runner.query<T>(sql, params as unknown[]);
    return res.rows;
  },
});

/** The PGlite transaction a drizzle transaction runs on (drizzle's session keeps it as `client`). */
const clientOf = (tx: Orm) => (tx._.session as unknown as { client: Transaction }).client;

/** PGlite on disk in `dataDir` (created if missing), or in memory when `dataDir` is undefined. */
export async function openPglite(dataDir?: string): Promise<Db & MigrationTarget> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = await openCluster(dataDir);
  const orm: Orm = drizzle(pg, { schema });
  let closed: Promise<void> | null = null;
  return {
    kind: 'pglite',
    orm,
    ...raw(pg),
    tx: (fn) => orm.transaction((t) => fn({ orm: t, ...raw(clientOf(t)) })),
    migrationTx: (fn) =>
      pg.transaction((t) =>
        fn({
          ...raw(t),
          exec: async (sql: string) => {
            await t.exec(sql);
          },
        }),
      ),
    close() {
      // close() checkpoints and flushes the data directory; calling it twice must not throw.
      closed ??= pg.closed ? Promise.resolve() : pg.close();
      return closed;
    },
  };
}

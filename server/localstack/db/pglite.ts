import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { emptyClusterTemplate } from './pglite-template';
import type { Db, MigrationTarget, Queryable } from './types';

async function openInMemory(): Promise<PGlite> {
  try {
    return await PGlite.create({ loadDataDir: await emptyClusterTemplate() });
  } catch {
    // A damaged cached template must not stop tests: fall back to a plain initdb.
    return PGlite.create();
  }
}

/** PGlite on disk in `dataDir` (created if missing), or in memory when `dataDir` is undefined. */
export async function openPglite(dataDir?: string): Promise<Db & MigrationTarget> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const pg = dataDir ? await PGlite.create({ dataDir }) : await openInMemory();
  let closed: Promise<void> | null = null;
  const wrap = (runner: Pick<PGlite, 'query'>): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const res = await runner.query<T>(sql, params as unknown[]);
      return res.rows;
    },
  });
  return {
    kind: 'pglite',
    ...wrap(pg),
    tx: (fn) => pg.transaction((t) => fn(wrap(t))),
    migrationTx: (fn) =>
      pg.transaction((t) =>
        fn({
          ...wrap(t),
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

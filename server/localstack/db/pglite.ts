import { mkdirSync } from 'node:fs';
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { emptyClusterTemplate } from './pglite-template';
import { schema, type Orm } from './schema';
import type { Db, MigrationTarget, RawQueryable } from './types';

async function openInMemory(): Promise<PGlite> {
  try {
    return await PGlite.create({ loadDataDir: await emptyClusterTemplate() });
  } catch {
    // A damaged cached template must not stop tests: fall back to a plain initdb.
    return PGlite.create();
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
  const pg = dataDir ? await PGlite.create({ dataDir }) : await openInMemory();
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

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { legacyMigrations } from './legacy-migrations';
import type { Migration } from './types';

/** Bump when the templates' content must change for a reason the key below does not see. */
const TEMPLATE_VERSION = 2;

const pending = new Map<string, Promise<Blob>>();

/**
 * A PGlite cluster as a tarball, cached in the OS temp directory under `name`, built by `build` once per
 * machine. Workers that race to build it each write their own file and rename it into place (atomic), so a
 * reader only ever sees a whole tarball; a failed build is forgotten so the next caller tries again. The file
 * is gzipped; the process keeps it unpacked, as a cluster loads from a plain tarball in half the time.
 */
function cachedCluster(name: string, build: () => Promise<Blob>): Promise<Blob> {
  const file = join(tmpdir(), `console-pglite-${name}-v${TEMPLATE_VERSION}-${process.versions.node.split('.')[0]}.tgz`);
  let blob = pending.get(file);
  if (!blob) {
    blob = (async () => {
      if (existsSync(file)) return new Blob([gunzipSync(readFileSync(file))]);
      const built = await build();
      const bytes = Buffer.from(await built.arrayBuffer());
      const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      writeFileSync(partial, bytes);
      renameSync(partial, file);
      return new Blob([gunzipSync(bytes)]);
    })();
    blob.catch(() => pending.delete(file));
    pending.set(file, blob);
  }
  return blob;
}

/**
 * A freshly initialised, empty PGlite cluster: running initdb takes seconds, loading this takes a fraction
 * of that (tests start many in-memory stacks).
 */
export function emptyClusterTemplate(): Promise<Blob> {
  return cachedCluster('empty', async () => {
    const pg = await PGlite.create();
    try {
      return await pg.dumpDataDir('gzip');
    } finally {
      await pg.close();
    }
  });
}

/** A hash of every migration a new database gets (legacy and drizzle-kit): a template is valid for exactly these. */
export function migrationsKey(migrations: readonly Migration[]): string {
  const hash = createHash('sha256');
  for (const m of [...legacyMigrations, ...migrations]) hash.update(`${m.id}\u0000${m.sql}\u0000`);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A cluster with `migrations` already applied, keyed by their hash (and the extensions loaded): a new
 * database starts from it with nothing left to migrate, instead of running every migration again. `build`
 * opens an empty cluster, migrates it and dumps it.
 */
export function migratedClusterTemplate(migrations: readonly Migration[], extensions: readonly string[], build: () => Promise<Blob>): Promise<Blob> {
  return cachedCluster(`migrated-${migrationsKey(migrations)}-${[...extensions].sort().join('+')}`, build);
}

import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';

/** Bump when the template's content must change. */
const TEMPLATE_VERSION = 1;

let pending: Promise<Blob> | null = null;

/**
 * A freshly initialised, empty PGlite cluster as a tarball, cached in the OS temp directory: running
 * initdb takes seconds, loading this takes a fraction of that (tests start many in-memory stacks).
 */
export function emptyClusterTemplate(): Promise<Blob> {
  pending ??= (async () => {
    const file = join(tmpdir(), `console-pglite-empty-v${TEMPLATE_VERSION}-${process.versions.node.split('.')[0]}.tgz`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const pg = await PGlite.create();
    try {
      const dump = await pg.dumpDataDir('gzip');
      const bytes = Buffer.from(await dump.arrayBuffer());
      const partial = `${file}.${process.pid}.${Date.now()}.tmp`;
      writeFileSync(partial, bytes);
      renameSync(partial, file);
      return new Blob([bytes]);
    } finally {
      await pg.close();
    }
  })().catch((err) => {
    pending = null;
    throw err;
  });
  return pending;
}

import { describe, expect, it } from 'vitest';
import { migrate, readMigrations } from './migrate';
import { openPglite } from './pglite';
import { migrationsKey } from './pglite-template';

/** Building the template runs every migration: on a loaded 2-core machine that takes past the default 30 s. */
const MIGRATIONS_TIMEOUT = 180_000;

describe('the migrated PGlite template', () => {
  it('starts a new database with every migration applied, so the migrator has nothing left to do', { timeout: MIGRATIONS_TIMEOUT }, async () => {
    const migrations = readMigrations();
    const db = await openPglite(undefined, migrations);
    try {
      const rows = await db.query<{ id: string }>('SELECT id FROM schema_migrations');
      expect(rows.map((r) => r.id)).toEqual(expect.arrayContaining(migrations.map((m) => m.id)));
      expect(await migrate(db, migrations)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('is keyed by the migrations: another list, or a changed file, gets its own template', () => {
    const migrations = readMigrations();
    const key = migrationsKey(migrations);
    expect(migrationsKey(readMigrations())).toBe(key);
    expect(migrationsKey(migrations.slice(0, -1))).not.toBe(key);
    expect(migrationsKey(migrations.map((m, i) => (i === migrations.length - 1 ? { ...m, sql: `${m.sql}\n-- changed` } : m)))).not.toBe(key);
  });

  it('gives an empty cluster without migrations, for the migrator tests that build old databases', { timeout: MIGRATIONS_TIMEOUT }, async () => {
    const db = await openPglite();
    try {
      expect(await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'schema_migrations'")).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

import { readFileSync } from 'node:fs';
import { legacyMigrations } from './legacy-migrations';
import type { Migration, MigrationTarget, RawQueryable } from './types';

/** Advisory lock key shared by every process migrating the same database. */
const MIGRATION_LOCK = 7_342_001;

/** The migrations `npm run db:generate` writes (drizzle-kit), next to this file in source and in the bundle. */
export const MIGRATIONS_FOLDER = new URL('./migrations/', import.meta.url);

interface Journal {
  entries: { idx: number; tag: string }[];
}

/**
 * Reads drizzle-kit's journal and SQL files. Each migration's id is its tag (`0000_baseline`).
 * Migrations are generated for the default schema; they run in the connection's current schema
 * (search_path), so the `"public".` qualifiers drizzle-kit writes on references are dropped.
 */
export function readMigrations(folder: URL = MIGRATIONS_FOLDER): Migration[] {
  const journal = JSON.parse(readFileSync(new URL('meta/_journal.json', folder), 'utf8')) as Journal;
  return [...journal.entries]
    .sort((a, b) => a.idx - b.idx)
    .map((e) => ({ id: e.tag, sql: readFileSync(new URL(`${e.tag}.sql`, folder), 'utf8').replaceAll('"public".', '') }));
}

/** Statements of a drizzle-kit migration, split where drizzle-kit marks them. */
export const splitStatements = (sql: string): string[] =>
  sql
    .split('--> statement-breakpoint')
    .map((s) => s.trim())
    .filter(Boolean);

async function lockAndRead(q: RawQueryable): Promise<Set<string>> {
  await q.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
  const rows = await q.query<{ id: string }>('SELECT id FROM schema_migrations');
  return new Set(rows.map((r) => r.id));
}

/**
 * Applies the migrations not yet recorded in `schema_migrations` (in the current schema), in order, each
 * in its own transaction; several instances starting at once serialise on an advisory lock.
 *
 * A database created before drizzle-kit (it has some of the legacy ids) first gets any legacy migration it
 * lacks, then the baseline — the first migration, which creates exactly the legacy tables — is recorded
 * as applied without running. Returns the ids applied or recorded.
 */
export async function migrate(target: MigrationTarget, migrations: Migration[] = readMigrations()): Promise<string[]> {
  const ids = new Set<string>();
  for (const m of [...legacyMigrations, ...migrations]) {
    if (ids.has(m.id)) throw new Error(`Duplicate migration id "${m.id}"`);
    ids.add(m.id);
  }
  const upToDate = await target.migrationTx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await q.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         id text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = await lockAndRead(q);
    return migrations.every((m) => done.has(m.id));
  });
  // Every migration recorded (a database started from the migrated template, or a restart): one read, not one transaction each.
  if (upToDate) return [];
  const applied: string[] = [];
  const baseline = migrations[0];
  const bridged = await target.migrationTx(async (q) => {
    const done = await lockAndRead(q);
    if (!baseline || done.has(baseline.id) || !legacyMigrations.some((m) => done.has(m.id))) return [];
    const ran: string[] = [];
    for (const m of legacyMigrations) {
      if (done.has(m.id)) continue;
      await q.exec(m.sql);
      await q.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      ran.push(m.id);
    }
    await q.query('INSERT INTO schema_migrations (id) VALUES ($1)', [baseline.id]);
    return [...ran, baseline.id];
  });
  applied.push(...bridged);
  for (const m of migrations) {
    const done = await target.migrationTx(async (q) => {
      if ((await lockAndRead(q)).has(m.id)) return false;
      for (const statement of splitStatements(m.sql)) await q.exec(statement);
      await q.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      return true;
    });
    if (done) applied.push(m.id);
  }
  return applied;
}

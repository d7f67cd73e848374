import type { Migration, MigrationTarget } from './types';

/** Advisory lock key shared by every process migrating the same database. */
const MIGRATION_LOCK = 7_342_001;

/**
 * Applies the migrations not yet recorded in `schema_migrations`, in order, each in its own
 * transaction (several instances starting at once serialise on an advisory lock).
 */
export async function migrate(target: MigrationTarget, migrations: Migration[]): Promise<string[]> {
  const ids = new Set<string>();
  for (const m of migrations) {
    if (ids.has(m.id)) throw new Error(`Duplicate migration id "${m.id}"`);
    ids.add(m.id);
  }
  await target.migrationTx(async (q) => {
    await q.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await q.exec(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         id text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
  });
  const applied: string[] = [];
  for (const m of migrations) {
    const done = await target.migrationTx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const rows = await q.query('SELECT id FROM schema_migrations WHERE id = $1', [m.id]);
      if (rows.length > 0) return false;
      await q.exec(m.sql);
      await q.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      return true;
    });
    if (done) applied.push(m.id);
  }
  return applied;
}

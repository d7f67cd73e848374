import { describe, expect, it } from 'vitest';
import { startTestStack } from './stack';

/**
 * The pool behind every test stack's database (database-pool.ts): a stack that follows another starts on an
 * empty database with the migrations' structure, whatever the one before it wrote or changed.
 */
describe('test stacks on pooled databases', () => {
  const tables = async (stack: Awaited<ReturnType<typeof startTestStack>>) =>
    (await stack.db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1`)).map((r) => r.name);

  /** Which database a stack is on: its PGlite cluster (the drizzle handle over it), or its PostgreSQL schema. */
  const whichDatabase = async (stack: Awaited<ReturnType<typeof startTestStack>>): Promise<unknown> =>
    stack.db.kind === 'pglite' ? stack.db.orm : (await stack.db.query<{ schema: string }>(`SELECT current_schema() AS schema`))[0]!.schema;

  it('starts the next stack empty, its identity sequences restarted, after the last one wrote', async () => {
    const first = await startTestStack();
    const before = await tables(first);
    await first.db.query(`INSERT INTO workspaces (id, name, created_at, updated_at) VALUES (gen_random_uuid(), 'left behind', now(), now())`);
    const insertTuple = `INSERT INTO relation_tuples (project_id, namespace, object, relation, subject_id, created_at) VALUES (gen_random_uuid(), 'File', 'readme', 'viewers', 'ada', now()) RETURNING seq::int AS seq`;
    await first.db.query(insertTuple);
    const [secondTuple] = await first.db.query<{ seq: number }>(insertTuple);
    expect(secondTuple!.seq).toBe(2);
    const database = await whichDatabase(first);
    await first.close();

    const second = await startTestStack();
    try {
      // The same database, emptied: not a new one.
      expect(await whichDatabase(second)).toBe(database);
      expect(await tables(second)).toEqual(before);
      const [workspaces] = await second.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM workspaces`);
      expect(workspaces!.n).toBe(0);
      const [tuples] = await second.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM relation_tuples`);
      expect(tuples!.n).toBe(0);
      const [tuple] = await second.db.query<{ seq: number }>(
        `INSERT INTO relation_tuples (project_id, namespace, object, relation, subject_id, created_at) VALUES (gen_random_uuid(), 'File', 'readme', 'viewers', 'ada', now()) RETURNING seq::int AS seq`,
      );
      expect(tuple!.seq).toBe(1);
      const [migrations] = await second.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM schema_migrations`);
      expect(migrations!.n).toBeGreaterThan(0);
    } finally {
      await second.close();
    }
  });

  it('never lends again a database whose structure a test changed', async () => {
    const first = await startTestStack();
    await first.db.query(`ALTER TABLE workspaces ADD COLUMN left_behind text`);
    const changed = await whichDatabase(first);
    await first.close();

    // However many stacks follow, none sees the column: the changed database was closed or dropped, not emptied.
    for (let i = 0; i < 2; i += 1) {
      const next = await startTestStack();
      try {
        const columns = await next.db.query<{ name: string }>(
          `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'workspaces' AND column_name = 'left_behind'`,
        );
        expect(columns).toEqual([]);
        expect(await whichDatabase(next)).not.toBe(changed);
      } finally {
        await next.close();
      }
    }
  });
});

import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applicationName } from '../db/postgres';
import type { LocalStack } from '../index';
import { createDurableStore, startTestStack, type DurableStore } from '../../server/test-support/stack';
import { call, newUser, projectWithKey, uniqueEmail, type Answer, type TestProject } from '../test-support/admin-api';

// Collected only when DATABASE_URL is set (see vitest.config.ts): PGlite has no backends to terminate.
const databaseUrl = process.env.DATABASE_URL!;

describe('a batch import whose database connection is lost half-way', () => {
  let store: DurableStore;
  let stack: LocalStack;
  let project: TestProject;
  let admin: pg.Client;
  let appName: string;

  beforeAll(async () => {
    store = await createDurableStore();
    stack = await startTestStack(store.options);
    appName = applicationName(store.options.dbSchema);
    project = await projectWithKey(stack, await newUser(stack, 'Importer'), 'Lossy imports');
    admin = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${store.options.dbSchema}` });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await stack?.close();
    await store?.dispose();
  });

  const batch = (emails: string[]) =>
    call(project.base, 'PATCH', '/admin/identities', {
      key: project.key,
      body: { identities: emails.map((email) => ({ create: { schema_id: 'default', traits: { email } } })) },
    });

  /**
   * Runs the import of `emails` while another transaction holds the address `emails[at]` uncommitted, so
   * that identity's write waits on it; then terminates every backend of the stack and lets go.
   */
  async function importLosingConnectionAt(emails: string[], at: number): Promise<Answer> {
    await admin.query('BEGIN');
    const holder = randomUUID();
    await admin.query('INSERT INTO identities (id, nid, traits) VALUES ($1, $2, $3)', [holder, project.id, { email: emails[at] }]);
    await admin.query('INSERT INTO identity_verifiable_addresses (id, nid, identity_id, value) VALUES ($1, $2, $3, $4)', [
      randomUUID(),
      project.id,
      holder,
      emails[at],
    ]);
    const answer = batch(emails);
    try {
      for (;;) {
        // A fresh snapshot of the activity on every poll (the admin connection is in a transaction).
        await admin.query('SELECT pg_stat_clear_snapshot()');
        const waiting = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [appName]);
        if (waiting.rowCount) break;
      }
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [appName]);
    } finally {
      await admin.query('ROLLBACK');
    }
    return answer;
  }

  const stored = async (emails: string[]) =>
    (await admin.query<{ value: string }>('SELECT value FROM identity_verifiable_addresses WHERE nid = $1 AND value = ANY($2)', [project.id, emails])).rows
      .map((r) => r.value)
      .sort();

  it('answers the 75 identities it committed and the rest as not imported, instead of a 503 for all', async () => {
    const emails = Array.from({ length: 100 }, (_, i) => uniqueEmail(`row${i}`));
    const answer = await importLosingConnectionAt(emails, 75);
    expect(answer.status).toBe(200);
    const results = answer.body.identities as { action: string; identity?: string; error?: { code: number; reason: string } }[];
    expect(results).toHaveLength(100);
    expect(results.slice(0, 75).every((r) => r.action === 'create' && r.identity)).toBe(true);
    for (const r of results.slice(75)) {
      expect(r).toMatchObject({ action: 'error', error: { code: 503, reason: expect.stringMatching(/database connection was lost.*import it again/) } });
    }
    expect(await stored(emails)).toEqual(emails.slice(0, 75).sort());

    // The rows it did not import go through on a fresh connection.
    const again = await batch(emails.slice(75));
    expect(again.status).toBe(200);
    expect(again.body.identities.every((r: { action: string }) => r.action === 'create')).toBe(true);
    expect(await stored(emails)).toEqual([...emails].sort());
  });

  it('answers 503 when the connection is lost before anything was imported, and imports nothing', async () => {
    const emails = Array.from({ length: 5 }, (_, i) => uniqueEmail(`first${i}`));
    const answer = await importLosingConnectionAt(emails, 0);
    expect(answer.status).toBe(503);
    expect(answer.body.error).toMatchObject({ code: 503, reason: expect.stringMatching(/database connection was lost/) });
    expect(await stored(emails)).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrate, readMigrations } from './migrate';
import { openPglite } from './pglite';

/** Migrating a database from nothing: on a loaded 2-core machine that takes past the default 30 s. */
const MIGRATIONS_TIMEOUT = 180_000;
const MIGRATION = '0026_daily_active_users_from_events';

describe(MIGRATION, () => {
  it('turns each active day that had no SessionIssued event into one, then drops the table, so no count changes', { timeout: MIGRATIONS_TIMEOUT }, async () => {
    const all = readMigrations();
    const at = all.findIndex((m) => m.id === MIGRATION);
    expect(at).toBeGreaterThan(0);
    const db = await openPglite(undefined, all.slice(0, at));
    try {
      const [project, identity, other] = [randomUUID(), randomUUID(), randomUUID()];
      // Active on the 1st (before events were recorded) and on the 2nd, when its sign-in was also an event.
      await db.query('INSERT INTO active_identities (project_id, day, identity_id) VALUES ($1, $2, $3), ($1, $4, $3), ($1, $4, $5)', [project, '2026-03-01', identity, '2026-03-02', other]);
      await db.query(
        `INSERT INTO project_events (id, nid, type, occurred_at, identity_id, attributes) VALUES ($1, $2, 'SessionIssued', '2026-03-02T17:30:00Z', $3, '{"method":"password"}')`,
        [randomUUID(), project, identity],
      );

      expect(await migrate(db, all)).toEqual(all.slice(at).map((m) => m.id));

      const events = await db.query<{ identity_id: string; day: string; attributes: Record<string, string> }>(
        `SELECT identity_id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI') AS day, attributes FROM project_events WHERE nid = $1 AND type = 'SessionIssued' ORDER BY occurred_at, identity_id`,
        [project],
      );
      expect(events).toEqual(
        expect.arrayContaining([
          { identity_id: identity, day: '2026-03-01T00:00', attributes: { identity_id: identity } },
          { identity_id: identity, day: '2026-03-02T17:30', attributes: { method: 'password' } },
          { identity_id: other, day: '2026-03-02T00:00', attributes: { identity_id: other } },
        ]),
      );
      expect(events).toHaveLength(3);
      expect(await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'active_identities'")).toEqual([]);
    } finally {
      await db.close();
    }
  });
});

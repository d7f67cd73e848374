import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { workspaces } from '../kernel/tables';
import { legacyMigrations } from './legacy-migrations';
import { migrate, readMigrations } from './migrate';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';
import type { Db, MigrationTarget, RawQueryable } from './types';

/** Each test migrates several databases from nothing: on a loaded 2-core machine that takes well past the default 30 s. */
const MIGRATIONS_TIMEOUT = 180_000;

type Target = Db & MigrationTarget;

const databaseUrl = process.env.DATABASE_URL;
/** Every generated migration, in order: the baseline and those written after it. */
const generated = readMigrations().map((m) => m.id);
const schemas: string[] = [];

afterAll(async () => {
  if (!databaseUrl || schemas.length === 0) return;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const s of schemas) await client.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  } finally {
    await client.end();
  }
});

/** Exactly what the hand-written runner did: the legacy SQL, each id recorded in schema_migrations. */
async function applyLegacy(target: Target, ids: string[] = legacyMigrations.map((m) => m.id)): Promise<void> {
  await target.migrationTx(async (q) => {
    await q.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
    for (const m of legacyMigrations.filter((l) => ids.includes(l.id))) {
      await q.exec(m.sql);
      await q.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
    }
  });
}

/** Tables, columns, constraints and indexes of the current schema, with the schema's name masked. */
async function catalog(q: RawQueryable): Promise<unknown> {
  const [{ s }] = (await q.query<{ s: string }>('SELECT current_schema() AS s')) as [{ s: string }];
  const mask = (rows: Record<string, unknown>[]) =>
    rows.map((r) => JSON.parse(JSON.stringify(r).replaceAll(`${s}.`, '<schema>.')) as Record<string, unknown>);
  const tables = await q.query(
    `SELECT table_name, table_type FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY table_name`,
  );
  const columns = await q.query(
    `SELECT table_name, column_name, ordinal_position, data_type, udt_name, is_nullable, column_default
       FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`,
  );
  const constraints = await q.query(
    `SELECT c.conrelid::regclass::text AS table_name, c.conname, c.contype, pg_get_constraintdef(c.oid) AS definition,
            c.condeferrable, c.convalidated
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname = current_schema() ORDER BY c.conrelid::regclass::text, c.conname`,
  );
  const indexes = await q.query(
    `SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY tablename, indexname`,
  );
  return { tables, columns: mask(columns), constraints: mask(constraints), indexes: mask(indexes) };
}

/** One row in every table, written the way the stack writes them. */
async function seed(q: RawQueryable) {
  const ids = { identity: randomUUID(), workspace: randomUUID(), project: randomUUID(), revision: randomUUID() };
  const now = new Date().toISOString();
  await q.query(`INSERT INTO identities (id, traits) VALUES ($1, $2)`, [ids.identity, JSON.stringify({ email: 'kept@example.com' })]);
  await q.query(`INSERT INTO identity_credentials (identity_id, type, identifier, secret) VALUES ($1, 'password', 'kept@example.com', 'x')`, [
    ids.identity,
  ]);
  await q.query(`INSERT INTO identity_verifiable_addresses (id, identity_id, value) VALUES ($1, $2, 'kept@example.com')`, [
    randomUUID(),
    ids.identity,
  ]);
  await q.query(`INSERT INTO identity_recovery_addresses (id, identity_id, value) VALUES ($1, $2, 'kept@example.com')`, [
    randomUUID(),
    ids.identity,
  ]);
  await q.query(
    `INSERT INTO sessions (id, token_hash, logout_token_hash, identity_id, authenticated_at, issued_at, expires_at)
     VALUES ($1, 'th', 'lth', $2, $3, $3, $3)`,
    [randomUUID(), ids.identity, now],
  );
  await q.query(`INSERT INTO courier_messages (id, recipient, subject, body, template_type) VALUES ($1, 'kept@example.com', 's', 'b', 't')`, [
    randomUUID(),
  ]);
  await q.query(`INSERT INTO workspaces (id, name, created_at, updated_at) VALUES ($1, 'Kept', $2, $2)`, [ids.workspace, now]);
  await q.query(`INSERT INTO workspace_members (workspace_id, identity_id, role, created_at) VALUES ($1, $2, 'owner', $3)`, [
    ids.workspace,
    ids.identity,
    now,
  ]);
  await q.query(
    `INSERT INTO projects (id, slug, environment, workspace_id, current_revision_id, created_at, updated_at)
     VALUES ($1, 'kept-slug', 'dev', $2, $3, $4, $4)`,
    [ids.project, ids.workspace, ids.revision, now],
  );
  await q.query(`INSERT INTO project_revisions (id, project_id, name, created_at) VALUES ($1, $2, 'Kept project', $3)`, [
    ids.revision,
    ids.project,
    now,
  ]);
  await q.query(`INSERT INTO project_members (project_id, identity_id, role, created_at) VALUES ($1, $2, 'owner', $3)`, [
    ids.project,
    ids.identity,
    now,
  ]);
  await q.query(`INSERT INTO console_active_project (identity_id, project_id, updated_at) VALUES ($1, $2, $3)`, [
    ids.identity,
    ids.project,
    now,
  ]);
  return ids;
}

const recordedIds = async (q: RawQueryable) =>
  (await q.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id')).map((r) => r.id);

const drivers: { name: string; open: () => Promise<Target> }[] = [{ name: 'PGlite', open: () => openPglite() }];
if (databaseUrl) {
  drivers.push({
    name: 'PostgreSQL',
    open: () => {
      const schema = `t_bridge_${randomBytes(5).toString('hex')}`;
      schemas.push(schema);
      return openPostgres(databaseUrl, schema);
    },
  });
}

describe.each(drivers)('opening a database made by the hand-written migrations ($name)', ({ open }) => {
  it('records the baseline without running it, keeps every row, and ends with the same catalog as a fresh database', { timeout: MIGRATIONS_TIMEOUT }, async () => {
    const legacy = await open();
    const fresh = await open();
    try {
      await applyLegacy(legacy);
      const ids = await seed(legacy);

      expect(await migrate(legacy)).toEqual(generated);
      expect(await migrate(fresh)).toEqual(generated);
      expect(await recordedIds(legacy)).toEqual(
        [...generated, 'cp_0001_workspaces', 'cp_0002_projects', 'id_0001_identities'].sort(),
      );
      const expected = (await catalog(fresh)) as { tables: unknown[]; constraints: { conname: string }[]; indexes: unknown[] };
      // 26 tables until the OAuth2 server (3), relation tuples (1), branding (2), custom domains (1), project events (1), event streams (3), organizations with their onboarding links (2), identity hook calls (1) and the audit log (1), less the daily active users now read from the events (1), plus the SAML service provider's keys and sessions (2) and the answers of idempotent writes (1).
      expect(expected.tables).toHaveLength(43);
      expect(expected.constraints.map((c) => c.conname)).toEqual(
        expect.arrayContaining(['sessions_token_hash_key', 'identity_credentials_identity_id_fkey', 'workspace_members_role_check']),
      );
      expect(await catalog(legacy)).toEqual(expected);

      const [project] = await legacy.query<{ slug: string; name: string; role: string; traits: { email: string } }>(
        `SELECT p.slug, r.name, m.role, i.traits FROM projects p
           JOIN project_revisions r ON r.id = p.current_revision_id
           JOIN project_members m ON m.project_id = p.id
           JOIN identities i ON i.id = m.identity_id
          WHERE p.id = $1`,
        [ids.project],
      );
      expect(project).toEqual({ slug: 'kept-slug', name: 'Kept project', role: 'owner', traits: { email: 'kept@example.com' } });
      for (const table of ['sessions', 'courier_messages', 'identity_credentials', 'workspace_members', 'console_active_project']) {
        expect(await legacy.query(`SELECT 1 FROM ${table}`), table).toHaveLength(1);
      }
      // The typed handle reads the bridged database too.
      const rows = await legacy.orm.select({ name: workspaces.name }).from(workspaces);
      expect(rows.map((w) => w.name)).toEqual(['Kept']);
    } finally {
      await legacy.close();
      await fresh.close();
    }
  });

  it('applies migrations generated after the baseline on a bridged database, once', { timeout: MIGRATIONS_TIMEOUT }, async () => {
    const legacy = await open();
    try {
      await applyLegacy(legacy);
      const later = [
        ...readMigrations(),
        {
          id: '9999_later',
          sql: 'ALTER TABLE "workspaces" ADD COLUMN "note" text;--> statement-breakpoint\nCREATE INDEX "workspaces_note_idx" ON "workspaces" USING btree ("note");',
        },
      ];
      expect(await migrate(legacy, later)).toEqual([...generated, '9999_later']);
      expect(await migrate(legacy, later)).toEqual([]);
      const cols = await legacy.query<{ column_name: string }>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'workspaces' AND column_name = 'note'`,
      );
      expect(cols).toHaveLength(1);
    } finally {
      await legacy.close();
    }
  });

  it('first completes a database that has only part of the hand-written migrations', { timeout: MIGRATIONS_TIMEOUT }, async () => {
    const partial = await open();
    const fresh = await open();
    try {
      await applyLegacy(partial, ['id_0001_identities']);
      expect(await migrate(partial)).toEqual(['cp_0001_workspaces', 'cp_0002_projects', ...generated]);
      await migrate(fresh);
      expect(await catalog(partial)).toEqual(await catalog(fresh));
    } finally {
      await partial.close();
      await fresh.close();
    }
  });
});

// Several instances on one database is a PostgreSQL deployment; an embedded PGlite has one process.
if (databaseUrl) {
  describe('instances starting together on PostgreSQL', () => {
    it('serialise their migrations: both start, the baseline runs once', { timeout: MIGRATIONS_TIMEOUT }, async () => {
      const schema = `t_bridge_${randomBytes(5).toString('hex')}`;
      schemas.push(schema);
      const a = await openPostgres(databaseUrl!, schema);
      const b = await openPostgres(databaseUrl!, schema);
      try {
        const [ranA, ranB] = await Promise.all([migrate(a), migrate(b)]);
        // Each migration runs once, by whichever instance takes the lock for it first (they may alternate).
        expect([...ranA, ...ranB].sort()).toEqual([...generated].sort());
        expect(await recordedIds(a)).toEqual(generated);
      } finally {
        await a.close();
        await b.close();
      }
    });
  });
}

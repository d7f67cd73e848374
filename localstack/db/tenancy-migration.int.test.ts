import { createHash, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createDurableStore, FAST_HASH, startTestStack, type DurableStore } from '../../server/test-support/stack';
import { frontendApi, loginUser, registerUser } from '../../server/test-support/users';
import { anyStatus } from '../test-support/self-service';
import { hashPassword } from '../identity/password';
import { CONSOLE_NID } from '../kernel/tenant-id';
import type { LocalStack } from '../index';
import { migrate, readMigrations } from './migrate';
import { openPglite } from './pglite';
import { openPostgres } from './postgres';

let store: DurableStore | undefined;
let stack: LocalStack | undefined;
afterAll(async () => {
  await stack?.close();
  await store?.dispose();
});

const IDENTITY_TABLES = [
  'courier_message_dispatches',
  'courier_messages',
  'identities',
  'identity_credentials',
  'identity_recovery_addresses',
  'identity_verifiable_addresses',
  // The OAuth2 server's tables came after tenancy, with their tenant from the start.
  'oauth2_artefacts',
  'oauth2_clients',
  'oauth2_keys',
  // A project's recorded events (metrics), tenant-scoped from the start.
  'project_events',
  // A tenant's SAML service-provider key and its sessions' SAML subjects, tenant-scoped from the start.
  'saml_sessions',
  'saml_sp_keys',
  'selfservice_codes',
  'selfservice_errors',
  'selfservice_flows',
  'sessions',
];

describe('a database from before tenancy', () => {
  it("still signs its users in after the tenancy migration: their rows land in the console's tenant", async () => {
    store = await createDurableStore();
    const { databaseUrl, dbSchema, dataDir } = store.options;
    const old = databaseUrl ? await openPostgres(databaseUrl, dbSchema) : await openPglite(dataDir);
    const identityId = randomUUID();
    const email = `before-tenancy-${identityId.slice(0, 8)}@example.com`;
    const password = 'a-Long-and-unusual-passw0rd';
    const sessionToken = `ory_st_${randomUUID()}`;
    try {
      // The schema as it was before tenancy, with a user and a live session written as the stack wrote them then.
      expect(await migrate(old, readMigrations().filter((m) => m.id === '0000_baseline'))).toEqual(['0000_baseline']);
      const now = new Date();
      const later = new Date(now.getTime() + 3600_000);
      await old.query('INSERT INTO identities (id, traits) VALUES ($1, $2)', [identityId, JSON.stringify({ email, name: 'Before' })]);
      await old.query(`INSERT INTO identity_credentials (identity_id, type, identifier, secret) VALUES ($1, 'password', $2, $3)`, [
        identityId,
        email,
        await hashPassword(password, FAST_HASH),
      ]);
      await old.query(`INSERT INTO identity_verifiable_addresses (id, identity_id, value) VALUES ($1, $2, $3)`, [randomUUID(), identityId, email]);
      await old.query(`INSERT INTO identity_recovery_addresses (id, identity_id, value) VALUES ($1, $2, $3)`, [randomUUID(), identityId, email]);
      const hash = (t: string) => createHash('sha256').update(t).digest('hex');
      await old.query(
        `INSERT INTO sessions (id, token_hash, logout_token_hash, identity_id, authenticated_at, issued_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $5, $6)`,
        [randomUUID(), hash(sessionToken), hash(`logout-${sessionToken}`), identityId, now, later],
      );
    } finally {
      await old.close();
    }

    stack = await startTestStack(store.options);
    const applied = await stack.db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(applied.map((m) => m.id)).toEqual(readMigrations().map((m) => m.id));

    // The session issued before the migration is still valid, and the password still signs in.
    const who = await frontendApi(stack.url).toSession({ xSessionToken: sessionToken });
    expect(who.data.identity?.id).toBe(identityId);
    const again = await loginUser(stack.url, email, password);
    expect(again.identityId).toBe(identityId);
    // The same email is still taken in the console's tenant …
    const duplicate = await registerUser(stack.url, { email, password }).then(
      () => 'registered',
      () => 'refused',
    );
    expect(duplicate).toBe('refused');
    expect((await frontendApi(stack.url).toSession({ xSessionToken: 'ory_st_forged' }, anyStatus)).status).toBe(401);

    // … every old row is the console's, and no table defaults nid any more: new rows must name their tenant.
    const owned = { identities: 'id', identity_credentials: 'identity_id', identity_verifiable_addresses: 'identity_id', sessions: 'identity_id' };
    for (const [table, column] of Object.entries(owned)) {
      const rows = await stack.db.query<{ nid: string }>(`SELECT nid FROM ${table} WHERE ${column} = $1`, [identityId]);
      expect(rows.length, table).toBeGreaterThan(0);
      expect(new Set(rows.map((r) => r.nid)), table).toEqual(new Set([CONSOLE_NID]));
    }
    const columns = await stack.db.query<{ table_name: string; is_nullable: string; column_default: string | null }>(
      `SELECT table_name, is_nullable, column_default FROM information_schema.columns
        WHERE table_schema = current_schema() AND column_name = 'nid' ORDER BY table_name`,
    );
    expect(columns).toEqual(IDENTITY_TABLES.map((table_name) => ({ table_name, is_nullable: 'NO', column_default: null })));
  });
});

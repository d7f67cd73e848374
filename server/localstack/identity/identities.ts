import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/types';
import { CONSOLE_NID } from './tenant-id';

export interface Traits {
  email: string;
  name?: string;
  [k: string]: unknown;
}

interface IdentityRow {
  id: string;
  schema_id: string;
  traits: Traits;
  state: string;
  state_changed_at: Date;
  created_at: Date;
  updated_at: Date;
}
interface AddressRow {
  id: string;
  value: string;
  verified: boolean;
  via: string;
  status: string;
  verified_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const iso = (d: Date | string | null) => (d === null ? undefined : new Date(d).toISOString());

/** Lower-cased, trimmed email: the identifier and address value Kratos stores. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** `base64url("default")`, as Kratos names the schema in schema_url. */
const SCHEMA_URL_ID = Buffer.from('default').toString('base64url');

/** The identity in Ory's wire format (no credentials). */
export async function identityJson(q: Queryable, identityId: string, base: string): Promise<Record<string, unknown> | null> {
  const [row] = await q.query<IdentityRow>('SELECT * FROM identities WHERE id = $1', [identityId]);
  if (!row) return null;
  const addresses = await q.query<AddressRow>(
    'SELECT * FROM identity_verifiable_addresses WHERE identity_id = $1 ORDER BY created_at, value',
    [identityId],
  );
  const recovery = await q.query<AddressRow>(
    'SELECT * FROM identity_recovery_addresses WHERE identity_id = $1 ORDER BY created_at, value',
    [identityId],
  );
  return {
    id: row.id,
    schema_id: row.schema_id,
    schema_url: `${base}/schemas/${SCHEMA_URL_ID}`,
    state: row.state,
    state_changed_at: iso(row.state_changed_at),
    traits: row.traits,
    verifiable_addresses: addresses.map((a) => ({
      id: a.id,
      value: a.value,
      verified: a.verified,
      via: a.via,
      status: a.status,
      ...(a.verified_at ? { verified_at: iso(a.verified_at) } : {}),
      created_at: iso(a.created_at),
      updated_at: iso(a.updated_at),
    })),
    recovery_addresses: recovery.map((a) => ({
      id: a.id,
      value: a.value,
      via: a.via,
      created_at: iso(a.created_at),
      updated_at: iso(a.updated_at),
    })),
    metadata_public: null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    organization_id: null,
  };
}

/** Postgres unique violation (duplicate identifier or address), raised by raw SQL or by drizzle. */
export { isUniqueViolation } from '../db/errors';

/** Creates an identity with a password credential; throws a unique violation on duplicate email. */
export async function createIdentity(q: Queryable, traits: Traits, passwordHash: string): Promise<string> {
  const id = randomUUID();
  const email = normalizeEmail(traits.email);
  await q.query(`INSERT INTO identities (nid, id, traits) VALUES ('${CONSOLE_NID}', $1, $2)`, [id, JSON.stringify(traits)]);
  await q.query(`INSERT INTO identity_credentials (nid, identity_id, type, identifier, secret) VALUES ('${CONSOLE_NID}', $1, $2, $3, $4)`, [
    id,
    'password',
    email,
    passwordHash,
  ]);
  await setAddresses(q, id, email);
  return id;
}

/** Points the verifiable and recovery addresses at `email` (an email change starts unverified). */
export async function setAddresses(q: Queryable, identityId: string, email: string): Promise<void> {
  const [current] = await q.query<{ value: string }>(
    'SELECT value FROM identity_verifiable_addresses WHERE identity_id = $1',
    [identityId],
  );
  if (current?.value === email) return;
  await q.query('DELETE FROM identity_verifiable_addresses WHERE identity_id = $1', [identityId]);
  await q.query('DELETE FROM identity_recovery_addresses WHERE identity_id = $1', [identityId]);
  await q.query(
    `INSERT INTO identity_verifiable_addresses (nid, id, identity_id, value, verified, via, status) VALUES ('${CONSOLE_NID}', $1, $2, $3, false, 'email', 'pending')`,
    [randomUUID(), identityId, email],
  );
  await q.query(`INSERT INTO identity_recovery_addresses (nid, id, identity_id, value, via) VALUES ('${CONSOLE_NID}', $1, $2, $3, 'email')`, [
    randomUUID(),
    identityId,
    email,
  ]);
}

export async function findPasswordCredential(
  q: Queryable,
  email: string,
): Promise<{ identity_id: string; secret: string; state: string } | undefined> {
  const [row] = await q.query<{ identity_id: string; secret: string; state: string }>(
    `SELECT c.identity_id, c.secret, i.state FROM identity_credentials c JOIN identities i ON i.id = c.identity_id
     WHERE c.type = 'password' AND c.identifier = $1`,
    [normalizeEmail(email)],
  );
  return row;
}

export async function getTraits(q: Queryable, identityId: string): Promise<Traits | undefined> {
  const [row] = await q.query<{ traits: Traits }>('SELECT traits FROM identities WHERE id = $1', [identityId]);
  return row?.traits;
}

/** Identity id owning a recovery address, if any. */
export async function findByRecoveryAddress(q: Queryable, email: string): Promise<string | undefined> {
  const [row] = await q.query<{ identity_id: string }>(
    `SELECT identity_id FROM identity_recovery_addresses WHERE via = 'email' AND value = $1`,
    [normalizeEmail(email)],
  );
  return row?.identity_id;
}

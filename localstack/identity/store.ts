import { randomUUID } from 'node:crypto';
import type { Identity, IdentityStateEnum, VerifiableIdentityAddressViaEnum } from '@ory/client';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { identities, identityCredentials, identityRecoveryAddresses, identityVerifiableAddresses } from './schema';

export interface Traits {
  email: string;
  name?: string;
  [k: string]: unknown;
}

const iso = (d: Date | null) => (d === null ? undefined : d.toISOString());

/** Lower-cased, trimmed email: the identifier and address value Kratos stores. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** The identity of tenant `nid` in Ory's wire format (no credentials), or null. */
export async function identityJson(q: Queryable, nid: string, identityId: string, base: string): Promise<Identity | null> {
  const [row] = await q.orm
    .select()
    .from(identities)
    .where(and(eq(identities.nid, nid), eq(identities.id, identityId)));
  if (!row) return null;
  const addresses = await q.orm
    .select()
    .from(identityVerifiableAddresses)
    .where(and(eq(identityVerifiableAddresses.nid, nid), eq(identityVerifiableAddresses.identity_id, identityId)))
    .orderBy(asc(identityVerifiableAddresses.created_at), asc(identityVerifiableAddresses.value));
  const recovery = await q.orm
    .select()
    .from(identityRecoveryAddresses)
    .where(and(eq(identityRecoveryAddresses.nid, nid), eq(identityRecoveryAddresses.identity_id, identityId)))
    .orderBy(asc(identityRecoveryAddresses.created_at), asc(identityRecoveryAddresses.value));
  return {
    id: row.id,
    schema_id: row.schema_id,
    schema_url: `${base}/schemas/${Buffer.from(row.schema_id).toString('base64url')}`,
    state: row.state as IdentityStateEnum,
    state_changed_at: iso(row.state_changed_at),
    traits: row.traits,
    verifiable_addresses: addresses.map((a) => ({
      id: a.id,
      value: a.value,
      verified: a.verified,
      via: a.via as VerifiableIdentityAddressViaEnum,
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
    metadata_public: (row.metadata_public ?? null) as Record<string, unknown> | null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    organization_id: null,
  } satisfies Identity;
}

/** Postgres unique violation (duplicate identifier or address), raised by raw SQL or by drizzle. */
export { isUniqueViolation } from '../db/errors';

/** Creates an identity of tenant `nid` with a password credential; throws a unique violation on a duplicate email in that tenant. */
export async function createIdentity(q: Queryable, nid: string, traits: Traits, passwordHash: string): Promise<string> {
  const id = randomUUID();
  const email = normalizeEmail(traits.email);
  await q.orm.insert(identities).values({ id, nid, traits });
  await q.orm.insert(identityCredentials).values({ nid, identity_id: id, type: 'password', identifier: email, secret: passwordHash });
  await setAddresses(q, nid, id, email);
  return id;
}

/** Points the verifiable and recovery addresses at `email` (an email change starts unverified). */
export async function setAddresses(q: Queryable, nid: string, identityId: string, email: string): Promise<void> {
  const ofIdentity = <T extends typeof identityVerifiableAddresses | typeof identityRecoveryAddresses>(t: T) =>
    and(eq(t.nid, nid), eq(t.identity_id, identityId));
  const [current] = await q.orm
    .select({ value: identityVerifiableAddresses.value })
    .from(identityVerifiableAddresses)
    .where(ofIdentity(identityVerifiableAddresses));
  if (current?.value === email) return;
  await q.orm.delete(identityVerifiableAddresses).where(ofIdentity(identityVerifiableAddresses));
  await q.orm.delete(identityRecoveryAddresses).where(ofIdentity(identityRecoveryAddresses));
  await q.orm
    .insert(identityVerifiableAddresses)
    .values({ id: randomUUID(), nid, identity_id: identityId, value: email, verified: false, via: 'email', status: 'pending' });
  await q.orm.insert(identityRecoveryAddresses).values({ id: randomUUID(), nid, identity_id: identityId, value: email, via: 'email' });
}

/** The password credential of tenant `nid` for an email, with its identity's state. */
export async function findPasswordCredential(
  q: Queryable,
  nid: string,
  email: string,
): Promise<{ identity_id: string; secret: string; state: string } | undefined> {
  const [row] = await q.orm
    .select({ identity_id: identityCredentials.identity_id, secret: identityCredentials.secret, state: identities.state })
    .from(identityCredentials)
    .innerJoin(identities, and(eq(identities.id, identityCredentials.identity_id), eq(identities.nid, nid)))
    .where(
      and(eq(identityCredentials.nid, nid), eq(identityCredentials.type, 'password'), eq(identityCredentials.identifier, normalizeEmail(email))),
    );
  return row;
}

export async function getTraits(q: Queryable, nid: string, identityId: string): Promise<Traits | undefined> {
  const [row] = await q.orm
    .select({ traits: identities.traits })
    .from(identities)
    .where(and(eq(identities.nid, nid), eq(identities.id, identityId)));
  return row?.traits as Traits | undefined;
}

/** Replaces the traits of an identity of tenant `nid`. */
export async function updateTraits(q: Queryable, nid: string, identityId: string, traits: Traits): Promise<void> {
  await q.orm
    .update(identities)
    .set({ traits, updated_at: sql`now()` })
    .where(and(eq(identities.nid, nid), eq(identities.id, identityId)));
}

/** Sets the password credential's identifier or secret. */
export async function updatePasswordCredential(
  q: Queryable,
  nid: string,
  identityId: string,
  change: { identifier: string } | { secret: string },
): Promise<void> {
  await q.orm
    .update(identityCredentials)
    .set({ ...change, updated_at: sql`now()` })
    .where(and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, 'password')));
}

/** Identity id owning a recovery address in tenant `nid`, if any. */
export async function findByRecoveryAddress(q: Queryable, nid: string, email: string): Promise<string | undefined> {
  const [row] = await q.orm
    .select({ identity_id: identityRecoveryAddresses.identity_id })
    .from(identityRecoveryAddresses)
    .where(
      and(
        eq(identityRecoveryAddresses.nid, nid),
        eq(identityRecoveryAddresses.via, 'email'),
        eq(identityRecoveryAddresses.value, normalizeEmail(email)),
      ),
    );
  return row?.identity_id;
}

/** Identity id owning a verifiable address in tenant `nid`, if any. */
export async function findByVerifiableAddress(q: Queryable, nid: string, email: string): Promise<string | undefined> {
  const [row] = await q.orm
    .select({ identity_id: identityVerifiableAddresses.identity_id })
    .from(identityVerifiableAddresses)
    .where(
      and(
        eq(identityVerifiableAddresses.nid, nid),
        eq(identityVerifiableAddresses.via, 'email'),
        eq(identityVerifiableAddresses.value, email),
      ),
    );
  return row?.identity_id;
}

/** Marks an identity's address verified (a redeemed verification or recovery code proves it). */
export async function markAddressVerified(q: Queryable, nid: string, identityId: string, address: string): Promise<void> {
  await q.orm
    .update(identityVerifiableAddresses)
    .set({ verified: true, status: 'completed', verified_at: sql`coalesce(${identityVerifiableAddresses.verified_at}, now())`, updated_at: sql`now()` })
    .where(
      and(
        eq(identityVerifiableAddresses.nid, nid),
        eq(identityVerifiableAddresses.identity_id, identityId),
        eq(identityVerifiableAddresses.value, address),
      ),
    );
}

/** Marks an unverified address as having a verification code sent. */
export async function markAddressSent(q: Queryable, nid: string, identityId: string, address: string): Promise<void> {
  await q.orm
    .update(identityVerifiableAddresses)
    .set({ status: 'sent', updated_at: sql`now()` })
    .where(
      and(
        eq(identityVerifiableAddresses.nid, nid),
        eq(identityVerifiableAddresses.identity_id, identityId),
        eq(identityVerifiableAddresses.value, address),
        eq(identityVerifiableAddresses.verified, false),
      ),
    );
}

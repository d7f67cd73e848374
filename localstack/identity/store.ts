import { randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, gt, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { union } from 'drizzle-orm/pg-core';
import type { TraitIdentifiers } from '../../shared/domain/identity-schema-extension';
import type { Queryable } from '../db/types';
import { msOf, type Cursor } from '../kernel/paging';
import {
  identities,
  identityCredentials,
  identityRecoveryAddresses,
  identityVerifiableAddresses,
  type IdentityCredentialRow,
  type IdentityRow,
  type RecoveryAddressRow,
  type VerifiableAddressRow,
} from './schema';
import { authorizationChanged, consoleIdentitiesChanged } from '../kernel/authz-cache';

export type { Traits } from '../kernel/tables';
import type { Traits } from '../kernel/tables';

/** Lower-cased, trimmed email: the identifier and address value Kratos stores. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

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
  await followCodeCredential(q, identityId, [email]);
}

const codeCredentialSecret = (address: string) => JSON.stringify({ addresses: [{ channel: 'email', address }] });

/** The `code` credential of an identity that signed up with a code sent to `address` (Kratos' CredentialsCode). */
export async function insertCodeCredential(q: Queryable, nid: string, identityId: string, address: string): Promise<void> {
  await q.orm.insert(identityCredentials).values({ nid, identity_id: identityId, type: 'code', identifier: address, secret: codeCredentialSecret(address) });
}

/**
 * Keeps a `code` credential on the identity's email addresses: one whose address the identity no longer has
 * moves to its first email address, and goes when it has none, so it never holds an address someone else may take.
 */
async function followCodeCredential(q: Queryable, identityId: string, emails: string[]): Promise<void> {
  const isCode = and(eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, 'code'));
  const [credential] = await q.orm.select({ identifier: identityCredentials.identifier }).from(identityCredentials).where(isCode);
  if (!credential || emails.includes(credential.identifier)) return;
  const [address] = emails;
  if (address) await q.orm.update(identityCredentials).set({ identifier: address, secret: codeCredentialSecret(address), updated_at: new Date() }).where(isCode);
  else await q.orm.delete(identityCredentials).where(isCode);
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
  // A console caller's email and name are cached with their session.
  consoleIdentitiesChanged(nid);
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
export async function findByVerifiableAddress(q: Queryable, nid: string, address: string, via: 'email' | 'sms' = 'email'): Promise<string | undefined> {
  const [row] = await q.orm
    .select({ identity_id: identityVerifiableAddresses.identity_id })
    .from(identityVerifiableAddresses)
    .where(
      and(
        eq(identityVerifiableAddresses.nid, nid),
        eq(identityVerifiableAddresses.via, via),
        eq(identityVerifiableAddresses.value, address),
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

/** An identity with everything its wire form shows. */
export interface StoredIdentity {
  row: IdentityRow;
  credentials: IdentityCredentialRow[];
  verifiable: VerifiableAddressRow[];
  recovery: RecoveryAddressRow[];
}

export interface IdentityFilter {
  nid: string;
  /** Keyset: the last row of the previous page (with its creation time when newest first). */
  after?: Cursor | null;
  /** Kratos' legacy page pagination: rows to skip. */
  offset?: number;
  limit: number;
  /** Newest first (the console's order) instead of Kratos' id order. */
  newestFirst?: boolean;
  ids?: string[];
  credentialsIdentifier?: string;
  /** Any part of an identifier, of the name trait or of an id (case-insensitive). */
  search?: string;
  state?: 'active' | 'inactive';
  schemaId?: string;
  /** Members of one organization (Kratos' organization_id filter). */
  organizationId?: string;
}

/** A LIKE pattern that matches `term` anywhere, its own wildcards taken literally. */
const containing = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * How many identities, in page order, a search looks through for a whole page before it asks the trigram indexes:
 * a term 2% of identities match (a domain among 50) fills a page of 25 from 4,000 nearly always (from 2,000 one
 * search in a hundred fell short and paid the indexes' full price).
 */
const SEARCH_WINDOW = 4000;
/**
 * How many of those a search looks through first for one match: a term that fills a page from the window is in
 * 1 identity of 154 at least, so the first 500 miss it less than 4% of the time (a 2% term, about never), while a
 * rare term, which no window answers, costs an eighth of the window's look before the trigram indexes.
 */
const SEARCH_PROBE = 500;
/** A piece of an id someone copied (hex with a digit or a dash, 4 characters at least), not a word of a name. */
const ID_PART = /^(?=.*[0-9-])[0-9a-f-]{4,36}$/i;

/** Loads the credentials and addresses of `rows` in three queries, keeping the rows' order. */
async function withDetails(q: Queryable, nid: string, rows: IdentityRow[]): Promise<StoredIdentity[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [credentials, verifiable, recovery] = await Promise.all([
    q.orm
      .select()
      .from(identityCredentials)
      .where(and(eq(identityCredentials.nid, nid), inArray(identityCredentials.identity_id, ids)))
      .orderBy(identityCredentials.type),
    q.orm
      .select()
      .from(identityVerifiableAddresses)
      .where(and(eq(identityVerifiableAddresses.nid, nid), inArray(identityVerifiableAddresses.identity_id, ids)))
      .orderBy(identityVerifiableAddresses.created_at, identityVerifiableAddresses.value),
    q.orm
      .select()
      .from(identityRecoveryAddresses)
      .where(and(eq(identityRecoveryAddresses.nid, nid), inArray(identityRecoveryAddresses.identity_id, ids)))
      .orderBy(identityRecoveryAddresses.created_at, identityRecoveryAddresses.value),
  ]);
  return rows.map((row) => ({
    row,
    credentials: credentials.filter((c) => c.identity_id === row.id),
    verifiable: verifiable.filter((a) => a.identity_id === row.id),
    recovery: recovery.filter((a) => a.identity_id === row.id),
  }));
}

/** One page of the tenant's identities in id order (Kratos' keyset order) or newest first, one more row than asked to tell if there is a next page. */
export async function listIdentities(q: Queryable, filter: IdentityFilter): Promise<StoredIdentity[]> {
  const conditions: SQL[] = [eq(identities.nid, filter.nid)];
  const after = filter.after;
  if (after && filter.newestFirst) {
    conditions.push(sql`(${msOf(identities.created_at)}, ${identities.id}) < (${after.createdAt ?? null}::timestamptz, ${after.id}::uuid)`);
  } else if (after) {
    conditions.push(gt(identities.id, after.id));
  }
  if (filter.ids) conditions.push(inArray(identities.id, filter.ids));
  if (filter.state) conditions.push(eq(identities.state, filter.state));
  if (filter.schemaId) conditions.push(eq(identities.schema_id, filter.schemaId));
  if (filter.organizationId) conditions.push(eq(identities.organization_id, filter.organizationId));
  if (filter.credentialsIdentifier !== undefined) {
    const owners = q.orm
      .select({ id: identityCredentials.identity_id })
      .from(identityCredentials)
      .where(and(eq(identityCredentials.nid, filter.nid), eq(identityCredentials.identifier, filter.credentialsIdentifier)));
    conditions.push(inArray(identities.id, owners));
  }
  const order = filter.newestFirst ? [desc(msOf(identities.created_at)), desc(identities.id)] : [asc(identities.id)];
  if (filter.search) {
    const term = filter.search;
    const pattern = containing(term);
    const ofTenant = eq(identities.nid, filter.nid);
    // What a search matches, of the identities table or of a window of its rows.
    const idMatches = (id: AnyColumn) =>
      UUID.test(term) ? eq(id, term.toLowerCase()) : ID_PART.test(term) ? sql`${id}::text LIKE ${pattern}` : sql`false`;
    const traitsMatch = (traits: AnyColumn) => or(sql`lower(${traits}->>'email') LIKE ${pattern}`, sql`lower(${traits}->>'name') LIKE ${pattern}`)!;
    // A term many identities match (a domain: 20,000 of 1,000,000) is answered from the next identities in
    // page order, when they hold a whole page of matches: they are then the first matches of all. The trigram
    // indexes below find every match, in no order, and each must be read from the table before the page can
    // be sorted (1.4 s at 20,000 matches); a rare term goes to them after a look at the first few identities.
    if (filter.offset === undefined) {
      // The matches among the next `size` identities, in page order: the outer query takes the window's rows
      // in the order the inner one reads them and stops at its limit.
      const matchesIn = (size: number, limit: number) => {
        const window = q.orm.select().from(identities).where(and(...conditions)).orderBy(...order).limit(size).as('search_window');
        // The row's own fields first: the credentials are looked up only for a row they leave unmatched, by its
        // id (OFFSET 0 keeps the planner from reading every match of the term from the trigram index instead,
        // which costs a common term 0.8 s at 1,000,000 identities).
        const matches = or(
          traitsMatch(window.traits),
          idMatches(window.id),
          sql`exists (select 1 from ${identityCredentials} where ${identityCredentials.nid} = ${filter.nid} and ${identityCredentials.identity_id} = ${window.id} and lower(${identityCredentials.identifier}) LIKE ${pattern} offset 0)`,
        );
        const inOrder = filter.newestFirst ? [desc(msOf(window.created_at)), desc(window.id)] : [asc(window.id)];
        return q.orm.select().from(window).where(matches).orderBy(...inOrder).limit(limit);
      };
      if ((await matchesIn(SEARCH_PROBE, 1)).length > 0) {
        const early = await matchesIn(SEARCH_WINDOW, filter.limit + 1);
        if (early.length > filter.limit) return withDetails(q, filter.nid, early);
      }
    }
    // The ids each trigram index finds, united: one OR across a subquery and two expressions would make
    // the planner test every identity of the tenant in id order instead (100 ms at 100,000 identities).
    const byIdentifier = q.orm
      .select({ id: identityCredentials.identity_id })
      .from(identityCredentials)
      .where(and(eq(identityCredentials.nid, filter.nid), sql`lower(${identityCredentials.identifier}) LIKE ${pattern}`));
    // The email and name traits share one trigram index (identities_traits_trgm), joined by a newline that a
    // term could span: each is then checked on its own.
    const traitsIndexed = sql`lower(coalesce(${identities.traits}->>'email', '') || E'\\n' || coalesce(${identities.traits}->>'name', ''))`;
    const byTraits = q.orm
      .select({ id: identities.id })
      .from(identities)
      .where(and(ofTenant, sql`${traitsIndexed} LIKE ${pattern}`, traitsMatch(identities.traits)));
    const byId = q.orm.select({ id: identities.id }).from(identities).where(and(ofTenant, idMatches(identities.id)));
    conditions.push(inArray(identities.id, union(byIdentifier, byTraits, byId)));
  }
  const rows = await q.orm
    .select()
    .from(identities)
    .where(and(...conditions))
    .orderBy(...order)
    .limit(filter.limit + 1)
    .offset(filter.offset ?? 0);
  return withDetails(q, filter.nid, rows);
}

/** How many identities the tenant has (Kratos' X-Total-Count). */
export async function countIdentities(q: Queryable, nid: string): Promise<number> {
  const [row] = await q.orm.select({ n: count() }).from(identities).where(eq(identities.nid, nid));
  return row?.n ?? 0;
}

export async function findIdentity(q: Queryable, nid: string, id: string, lock = false): Promise<StoredIdentity | null> {
  const query = q.orm
    .select()
    .from(identities)
    .where(and(eq(identities.nid, nid), eq(identities.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) return null;
  const [found] = await withDetails(q, nid, [row]);
  return found ?? null;
}

/** What an admin write sets on an identity. */
export interface IdentityInput {
  schemaId: string;
  /** Checked against the identity schema (checkTraits). */
  traits: Traits;
  state: 'active' | 'inactive';
  metadataPublic: unknown;
  metadataAdmin: unknown;
  /** The password identifier and the addresses its schema's `ory.sh/kratos` extension takes from the traits. */
  identifiers: TraitIdentifiers;
  /** A new password hash, or undefined to keep the current one (or none). */
  passwordHash?: string;
  /** The organization the identity belongs to (checked to be one of the tenant's); undefined keeps the current one. */
  organizationId?: string | null;
}

export async function insertIdentity(q: Queryable, nid: string, input: IdentityInput): Promise<string> {
  const id = randomUUID();
  const now = new Date();
  await q.orm.insert(identities).values({
    id,
    nid,
    schema_id: input.schemaId,
    traits: input.traits,
    metadata_public: input.metadataPublic ?? null,
    metadata_admin: input.metadataAdmin ?? null,
    state: input.state,
    state_changed_at: now,
    created_at: now,
    updated_at: now,
    organization_id: input.organizationId ?? null,
  });
  await syncIdentifiers(q, nid, id, input);
  return id;
}

export async function updateIdentity(q: Queryable, nid: string, current: IdentityRow, input: IdentityInput): Promise<void> {
  const now = new Date();
  await q.orm
    .update(identities)
    .set({
      schema_id: input.schemaId,
      traits: input.traits,
      metadata_public: input.metadataPublic ?? null,
      metadata_admin: input.metadataAdmin ?? null,
      state: input.state,
      ...(input.state !== current.state ? { state_changed_at: now } : {}),
      ...(input.organizationId !== undefined ? { organization_id: input.organizationId } : {}),
      updated_at: now,
    })
    .where(and(eq(identities.nid, nid), eq(identities.id, current.id)));
  // A console identity's state, email and name decide what its cached sessions answer.
  consoleIdentitiesChanged(nid);
  await syncIdentifiers(q, nid, current.id, input);
}

/**
 * Keeps the password credential's identifier and the verifiable and recovery addresses on what the
 * identity's schema marks: a changed address is fresh and unverified; an unchanged one keeps its verification.
 */
async function syncIdentifiers(q: Queryable, nid: string, identityId: string, input: IdentityInput): Promise<void> {
  const now = new Date();
  const identifier = input.identifiers.password;
  const isPassword = and(eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, 'password'));
  const [credential] = await q.orm.select().from(identityCredentials).where(isPassword);
  if (credential && identifier) {
    await q.orm
      .update(identityCredentials)
      .set({ identifier, ...(input.passwordHash ? { secret: input.passwordHash } : {}), updated_at: now })
      .where(isPassword);
  } else if (credential) {
    // The schema no longer gives a password identifier: the password cannot sign in any more.
    await q.orm.delete(identityCredentials).where(isPassword);
  } else if (input.passwordHash && identifier) {
    await q.orm.insert(identityCredentials).values({
      nid,
      identity_id: identityId,
      type: 'password',
      identifier,
      secret: input.passwordHash,
      created_at: now,
      updated_at: now,
    });
  }
  const key = (a: { value: string; via: string }) => `${a.via}\u0000${a.value}`;
  const wantedVerifiable = new Map(input.identifiers.verifiable.map((a) => [key(a), a]));
  const verifiable = await q.orm.select().from(identityVerifiableAddresses).where(eq(identityVerifiableAddresses.identity_id, identityId));
  for (const row of verifiable) {
    if (wantedVerifiable.delete(key(row))) continue;
    await q.orm.delete(identityVerifiableAddresses).where(eq(identityVerifiableAddresses.id, row.id));
  }
  for (const a of wantedVerifiable.values()) {
    await q.orm.insert(identityVerifiableAddresses).values({
      id: randomUUID(),
      nid,
      identity_id: identityId,
      value: a.value,
      verified: false,
      via: a.via,
      status: 'pending',
      created_at: now,
      updated_at: now,
    });
  }
  const wantedRecovery = new Map(input.identifiers.recovery.map((a) => [key(a), a]));
  const recovery = await q.orm.select().from(identityRecoveryAddresses).where(eq(identityRecoveryAddresses.identity_id, identityId));
  for (const row of recovery) {
    if (wantedRecovery.delete(key(row))) continue;
    await q.orm.delete(identityRecoveryAddresses).where(eq(identityRecoveryAddresses.id, row.id));
  }
  for (const a of wantedRecovery.values()) {
    await q.orm
      .insert(identityRecoveryAddresses)
      .values({ id: randomUUID(), nid, identity_id: identityId, value: a.value, via: a.via, created_at: now, updated_at: now });
  }
  await followCodeCredential(q, identityId, input.identifiers.verifiable.filter((a) => a.via === 'email').map((a) => a.value));
}

/** Sets whether the identity's address `value` is verified (what a patch of verifiable_addresses may change). */
export async function setAddressVerified(q: Queryable, nid: string, identityId: string, value: string, verified: boolean): Promise<void> {
  const now = new Date();
  await q.orm
    .update(identityVerifiableAddresses)
    .set({ verified, status: verified ? 'completed' : 'pending', verified_at: verified ? now : null, updated_at: now })
    .where(
      and(
        eq(identityVerifiableAddresses.nid, nid),
        eq(identityVerifiableAddresses.identity_id, identityId),
        eq(identityVerifiableAddresses.value, value),
      ),
    );
}

/** Deletes the identity (its credentials, addresses, sessions, flows and codes go with it); false when the tenant has none with that id. */
export async function deleteIdentity(q: Queryable, nid: string, id: string): Promise<boolean> {
  const rows = await q.orm
    .delete(identities)
    .where(and(eq(identities.nid, nid), eq(identities.id, id)))
    .returning({ id: identities.id });
  // A console identity's memberships, and so its keys' authority, go with it.
  authorizationChanged();
  return rows.length > 0;
}

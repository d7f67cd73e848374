/**
 * Where a project's authorization server keeps what it issues (codes, tokens, sessions, grants, interactions),
 * its clients and its signing keys. The provider reads and writes through these interfaces only, so the same
 * provider runs on memory in a unit test and on the stack's database in the local stack. Every store is bound
 * to one tenant (a project's id): nothing read through it can belong to another project.
 */

/** One artefact of oidc-provider, as its adapter hands it over: a JSON payload and what it is looked up by. */
export interface ArtefactRecord {
  payload: Record<string, unknown>;
  /** When it stops being found (seconds since the epoch), or null for never. */
  expiresAt: number | null;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  /** When it was consumed (a used authorization code, a rotated refresh token), or null. */
  consumedAt: number | null;
}

export interface ArtefactStore {
  upsert(kind: string, id: string, record: Omit<ArtefactRecord, 'consumedAt'>): Promise<void>;
  find(kind: string, id: string): Promise<ArtefactRecord | null>;
  findByUid(kind: string, uid: string): Promise<ArtefactRecord | null>;
  findByUserCode(kind: string, userCode: string): Promise<ArtefactRecord | null>;
  consume(kind: string, id: string, at: number): Promise<void>;
  destroy(kind: string, id: string): Promise<void>;
  /** Every artefact of a grant goes at once (a revoked refresh token takes its access tokens with it). */
  revokeByGrantId(grantId: string): Promise<void>;
  /** The ids and records of one kind whose payload has `field` equal to `value` (every one of the kind without a filter). */
  listByPayload(kind: string, filter?: { field: string; value: string }): Promise<Array<ArtefactRecord & { id: string }>>;
}

/** A client as Hydra keeps it: its `OAuth2Client` JSON, with the secret (which its answers leave out). */
export type StoredClient = Record<string, unknown> & { client_id: string };

export interface ClientStore {
  get(clientId: string): Promise<StoredClient | null>;
}

/** A private signing key (a JWK with `kid`, `alg` and `use`), newest first. */
export type SigningKey = Record<string, unknown> & { kid: string; alg: string };

export interface KeyStore {
  /** The tenant's signing keys; the first signs. */
  signingKeys(): Promise<SigningKey[]>;
}

/** A JSON Web Key as stored: private parts included where the key has them. */
export type StoredJwk = Record<string, unknown> & { kid: string; kty: string };

/** A project's JSON Web Key sets (Hydra's `/admin/keys`), by set name; `hydra.openid.id-token` holds its signing keys. */
export interface KeySetRepository {
  /** The set's keys, newest first; an empty list when there is no such set. */
  get(set: string): Promise<StoredJwk[]>;
  /** Adds keys to a set (a key with the same kid is replaced). */
  add(set: string, keys: StoredJwk[], at: Date): Promise<void>;
  /** The set holds exactly these keys afterwards. */
  replace(set: string, keys: StoredJwk[], at: Date): Promise<void>;
  /** false when there was no such set. */
  removeSet(set: string): Promise<boolean>;
  /** false when the set had no such key. */
  removeKey(set: string, kid: string): Promise<boolean>;
}

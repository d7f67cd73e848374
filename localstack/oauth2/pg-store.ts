import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import type { ClientRepository } from './admin-routes';
import { generateSigningKey } from './keys';
import { oauth2Artefacts, oauth2Clients, oauth2Keys, type OAuth2ClientRow } from './schema';
import type { ArtefactRecord, ArtefactStore, ClientStore, KeySetRepository, SigningKey, StoredClient, StoredJwk } from './storage';
import type { Queryable } from '../kernel/queryable';

/* The stores of a project's authorization server on the stack's database; every query is scoped by `nid`. */

const toDate = (seconds: number | null) => (seconds === null ? null : new Date(seconds * 1000));
const toSeconds = (date: Date | null) => (date === null ? null : Math.floor(date.getTime() / 1000));

export function pgArtefactStore(q: Queryable, nid: string): ArtefactStore {
  const t = oauth2Artefacts;
  const record = (row: typeof t.$inferSelect | undefined): ArtefactRecord | null =>
    row
      ? {
          payload: row.payload,
          expiresAt: toSeconds(row.expires_at),
          grantId: row.grant_id,
          userCode: row.user_code,
          uid: row.uid,
          consumedAt: toSeconds(row.consumed_at),
        }
      : null;
  return {
    async upsert(kind, id, r) {
      const values = {
        payload: r.payload,
        grant_id: r.grantId,
        user_code: r.userCode,
        uid: r.uid,
        expires_at: toDate(r.expiresAt),
        consumed_at: null,
      };
      await q.orm
        .insert(t)
        .values({ nid, kind, id, ...values })
        .onConflictDoUpdate({ target: [t.nid, t.kind, t.id], set: values });
    },
    async find(kind, id) {
      const [row] = await q.orm.select().from(t).where(and(eq(t.nid, nid), eq(t.kind, kind), eq(t.id, id)));
      return record(row);
    },
    async findByUid(kind, uid) {
      const [row] = await q.orm.select().from(t).where(and(eq(t.nid, nid), eq(t.kind, kind), eq(t.uid, uid))).limit(1);
      return record(row);
    },
    async findByUserCode(kind, userCode) {
      const [row] = await q.orm.select().from(t).where(and(eq(t.nid, nid), eq(t.kind, kind), eq(t.user_code, userCode))).limit(1);
      return record(row);
    },
    async consume(kind, id, at) {
      await q.orm
        .update(t)
        .set({ consumed_at: new Date(at * 1000) })
        .where(and(eq(t.nid, nid), eq(t.kind, kind), eq(t.id, id)));
    },
    async destroy(kind, id) {
      await q.orm.delete(t).where(and(eq(t.nid, nid), eq(t.kind, kind), eq(t.id, id)));
    },
    async revokeByGrantId(grantId) {
      await q.orm.delete(t).where(and(eq(t.nid, nid), eq(t.grant_id, grantId)));
    },
    async listByPayload(kind, filter) {
      const rows = await q.orm
        .select()
        .from(t)
        .where(and(eq(t.nid, nid), eq(t.kind, kind), filter ? sql`${t.payload}->>${filter.field} = ${filter.value}` : undefined))
        .orderBy(asc(t.id));
      return rows.map((row) => ({ ...record(row)!, id: row.id }));
    },
  };
}

const fromRow = (row: OAuth2ClientRow): StoredClient => ({
  ...row.data,
  client_id: row.id,
  client_name: row.client_name,
  owner: row.owner,
  ...(row.secret !== null ? { client_secret: row.secret } : {}),
  created_at: row.created_at.toISOString().replace('.000Z', 'Z'),
  updated_at: row.updated_at.toISOString().replace('.000Z', 'Z'),
});

const toRow = (nid: string, c: StoredClient) => {
  const { client_id, client_name, owner, client_secret, created_at, updated_at, ...data } = c;
  return {
    nid,
    id: client_id,
    client_name: typeof client_name === 'string' ? client_name : '',
    owner: typeof owner === 'string' ? owner : '',
    secret: typeof client_secret === 'string' ? client_secret : null,
    data,
    created_at: new Date(String(created_at)),
    updated_at: new Date(String(updated_at)),
  };
};

export function pgClientRepository(q: Queryable, nid: string): ClientRepository & ClientStore {
  const t = oauth2Clients;
  const get = async (id: string) => {
    const [row] = await q.orm.select().from(t).where(and(eq(t.nid, nid), eq(t.id, id)));
    return row ? fromRow(row) : null;
  };
  return {
    get,
    async list({ clientName, owner, after, limit }) {
      const rows = await q.orm
        .select()
        .from(t)
        .where(
          and(
            eq(t.nid, nid),
            clientName !== undefined ? eq(t.client_name, clientName) : undefined,
            owner !== undefined ? eq(t.owner, owner) : undefined,
            after !== undefined ? gt(t.id, after) : undefined,
          ),
        )
        .orderBy(sql`${t.id} COLLATE "C"`)
        .limit(limit);
      return rows.map(fromRow);
    },
    async insert(client) {
      const rows = await q.orm.insert(t).values(toRow(nid, client)).onConflictDoNothing().returning({ id: t.id });
      return rows.length === 1;
    },
    async replace(client) {
      const { nid: _nid, id, ...values } = toRow(nid, client);
      const rows = await q.orm
        .update(t)
        .set(values)
        .where(and(eq(t.nid, nid), eq(t.id, id)))
        .returning({ id: t.id });
      return rows.length === 1;
    },
    async remove(id) {
      // One statement: the client goes with its tokens, grants and sessions, or nothing goes.
      const [row] = await q.query<{ n: number }>(
        `WITH c AS (DELETE FROM oauth2_clients WHERE nid = $1 AND id = $2 RETURNING id),
              a AS (DELETE FROM oauth2_artefacts WHERE nid = $1 AND payload->>'clientId' IN (SELECT id FROM c))
         SELECT count(*)::int AS n FROM c`,
        [nid, id],
      );
      return Number(row?.n ?? 0) === 1;
    },
  };
}

/** Every scope the project's clients name (oidc-provider must know them all). */
export async function clientScopes(q: Queryable, nid: string): Promise<string[]> {
  const rows = await q.orm
    .selectDistinct({ scope: sql<string>`unnest(string_to_array(${oauth2Clients.data}->>'scope', ' '))` })
    .from(oauth2Clients)
    .where(eq(oauth2Clients.nid, nid));
  return rows.map((r) => r.scope).filter(Boolean);
}

/**
 * The project's signing keys (newest first) and cookie secrets, made on first use: a project that never used
 * OAuth2 has none, and two requests racing to make them keep whichever was stored first.
 */
export async function projectKeys(q: Queryable, nid: string, now: Date): Promise<{ signing: SigningKey[]; cookies: string[] }> {
  const read = async () => {
    const rows = await q.orm.select().from(oauth2Keys).where(eq(oauth2Keys.nid, nid)).orderBy(desc(oauth2Keys.created_at), asc(oauth2Keys.kid));
    return {
      signing: rows.filter((r) => r.use === 'sig' && r.jwk).map((r) => r.jwk as SigningKey),
      cookies: rows.filter((r) => r.use === 'cookie' && r.secret).map((r) => r.secret as string),
    };
  };
  const keys = await read();
  if (keys.signing.length > 0 && keys.cookies.length > 0) return keys;
  const fresh = [];
  if (keys.signing.length === 0) {
    const jwk = await generateSigningKey();
    fresh.push({ nid, kid: `sig:${nid}`, use: 'sig', jwk, secret: null, created_at: now });
  }
  if (keys.cookies.length === 0) {
    fresh.push({ nid, kid: `cookie:${nid}`, use: 'cookie', jwk: null, secret: randomBytes(32).toString('base64url'), created_at: now });
  }
  await q.orm.insert(oauth2Keys).values(fresh).onConflictDoNothing();
  return read();
}

/** A new signing key that signs from now on; the older ones stay published so tokens they signed still verify. */
export async function rotateSigningKey(q: Queryable, nid: string, now: Date): Promise<SigningKey> {
  const jwk = await generateSigningKey();
  await q.orm.insert(oauth2Keys).values({ nid, kid: `sig:${randomUUID()}`, use: 'sig', jwk, secret: null, created_at: now });
  return jwk;
}


/** The set of a project's token-signing keys (its `sig` keys): Hydra's name for it. */
export const ID_TOKEN_SET = 'hydra.openid.id-token';

/**
 * A project's JSON Web Key sets in its keys table: the signing keys are the `sig` rows (so a key added to
 * `hydra.openid.id-token` signs from then on, and one removed stops being published); every other set's keys
 * are rows whose `use` is `set:<name>`.
 */
export function pgKeySets(db: Queryable & { tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T> }, nid: string): KeySetRepository {
  const q = db;
  const t = oauth2Keys;
  const useOf = (set: string) => (set === ID_TOKEN_SET ? 'sig' : `set:${set}`);
  const rowKid = (set: string, kid: string) => (set === ID_TOKEN_SET ? `sig:${randomUUID()}` : `set:${set}:${kid}`);
  const inSet = (set: string) => and(eq(t.nid, nid), eq(t.use, useOf(set)));
  const ofKid = (kid: string) => sql`${t.jwk}->>'kid' = ${kid}`;
  const addOn = async (q: Queryable, set: string, keys: StoredJwk[], at: Date) => {
    for (const [i, key] of keys.entries()) {
      await q.orm.delete(t).where(and(inSet(set), ofKid(key.kid)));
      // Later keys of one call are a millisecond older, so the first one given is the newest.
      await q.orm.insert(t).values({ nid, kid: rowKid(set, key.kid), use: useOf(set), jwk: key, secret: null, created_at: new Date(at.getTime() - i) });
    }
  };
  return {
    async get(set) {
      const rows = await q.orm.select({ jwk: t.jwk }).from(t).where(inSet(set)).orderBy(desc(t.created_at), asc(t.kid));
      return rows.filter((r) => r.jwk).map((r) => r.jwk as StoredJwk);
    },
    add: (set, keys, at) => db.tx((q) => addOn(q, set, keys, at)),
    replace: (set, keys, at) =>
      db.tx(async (q) => {
        await q.orm.delete(t).where(inSet(set));
        await addOn(q, set, keys, at);
      }),
    async removeSet(set) {
      return (await q.orm.delete(t).where(inSet(set)).returning({ kid: t.kid })).length > 0;
    },
    async removeKey(set, kid) {
      return (await q.orm.delete(t).where(and(inSet(set), ofKid(kid))).returning({ kid: t.kid })).length > 0;
    },
  };
}

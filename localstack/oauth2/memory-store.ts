import type { ClientRepository } from './admin-routes';
import type { ArtefactRecord, ArtefactStore, ClientStore, KeySetRepository, StoredClient, StoredJwk } from './storage';

/** An `ArtefactStore` in memory, for a provider that lives as long as its process (tests, benchmarks). */
export function memoryArtefactStore(): ArtefactStore {
  const records = new Map<string, ArtefactRecord & { kind: string }>();
  const key = (kind: string, id: string) => `${kind}:${id}`;
  const findBy = (kind: string, field: 'uid' | 'userCode', value: string) => {
    for (const record of records.values()) if (record.kind === kind && record[field] === value) return record;
    return null;
  };
  return {
    async upsert(kind, id, record) {
      records.set(key(kind, id), { ...record, kind, consumedAt: null });
    },
    find: async (kind, id) => records.get(key(kind, id)) ?? null,
    findByUid: async (kind, uid) => findBy(kind, 'uid', uid),
    findByUserCode: async (kind, userCode) => findBy(kind, 'userCode', userCode),
    async consume(kind, id, at) {
      const record = records.get(key(kind, id));
      if (record) record.consumedAt = at;
    },
    async destroy(kind, id) {
      records.delete(key(kind, id));
    },
    async revokeByGrantId(grantId) {
      for (const [k, record] of records) if (record.grantId === grantId) records.delete(k);
    },
    async listByPayload(kind, filter) {
      return [...records]
        .filter(([, r]) => r.kind === kind && (!filter || r.payload[filter.field] === filter.value))
        .map(([k, r]) => ({ ...r, id: k.slice(kind.length + 1) }));
    },
  };
}

/** A `ClientStore` over a map the caller fills. */
export function memoryClientStore(clients: Map<string, StoredClient>): ClientStore {
  return { get: async (id) => clients.get(id) ?? null };
}

/** A `ClientRepository` over the same map a `memoryClientStore` reads. */
export function memoryClientRepository(clients: Map<string, StoredClient>): ClientRepository {
  return {
    async list({ clientName, owner, after, limit }) {
      return [...clients.values()]
        .filter((c) => (clientName === undefined || c.client_name === clientName) && (owner === undefined || c.owner === owner))
        .filter((c) => after === undefined || c.client_id > after)
        .sort((a, b) => (a.client_id < b.client_id ? -1 : 1))
        .slice(0, limit);
    },
    get: async (id) => clients.get(id) ?? null,
    async insert(client) {
      if (clients.has(client.client_id)) return false;
      clients.set(client.client_id, client);
      return true;
    },
    async replace(client) {
      if (!clients.has(client.client_id)) return false;
      clients.set(client.client_id, client);
      return true;
    },
    remove: async (id) => clients.delete(id),
  };
}

/** A `KeySetRepository` in memory. */
export function memoryKeySets(): KeySetRepository {
  const sets = new Map<string, StoredJwk[]>();
  return {
    get: async (set) => [...(sets.get(set) ?? [])],
    async add(set, keys) {
      const kids = new Set(keys.map((k) => k.kid));
      sets.set(set, [...keys, ...(sets.get(set) ?? []).filter((k) => !kids.has(k.kid))]);
    },
    async replace(set, keys) {
      sets.set(set, [...keys]);
    },
    removeSet: async (set) => sets.delete(set),
    async removeKey(set, kid) {
      const keys = sets.get(set) ?? [];
      const left = keys.filter((k) => k.kid !== kid);
      sets.set(set, left);
      return left.length < keys.length;
    },
  };
}

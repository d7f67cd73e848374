import type { ClientRepository } from './admin-routes';
import type { ArtefactRecord, ArtefactStore, ClientStore, StoredClient } from './storage';

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

import type { Adapter, AdapterPayload } from 'oidc-provider';
import { toProviderMetadata } from './client-mapping';
import type { ArtefactStore, ClientStore } from './storage';

/**
 * oidc-provider's storage contract (one adapter per model name) over an `ArtefactStore`. Clients are not
 * artefacts: the `Client` model reads Hydra's client JSON from the `ClientStore` and hands oidc-provider the
 * metadata it understands, so the admin API and the authorization server share one client record.
 */
export function adapterFactory(artefacts: ArtefactStore, clients: ClientStore, now: () => number, grantable: (scope: string) => string = (s) => s) {
  return (kind: string): Adapter => (kind === 'Client' ? clientAdapter(clients, grantable) : artefactAdapter(kind, artefacts, now));
}

/** `grantable` widens a client's scope with what the project's scope strategy lets it request (see scope-strategy.ts). */
function clientAdapter(clients: ClientStore, grantable: (scope: string) => string): Adapter {
  const readOnly = async () => {
    throw new Error('clients are written through the admin API, not by the authorization server');
  };
  return {
    async find(id) {
      const client = await clients.get(id);
      if (!client) return undefined;
      const metadata = toProviderMetadata(client);
      if (typeof metadata.scope === 'string') metadata.scope = grantable(metadata.scope);
      return metadata as AdapterPayload;
    },
    upsert: readOnly,
    findByUid: async () => undefined,
    findByUserCode: async () => undefined,
    consume: readOnly,
    destroy: readOnly,
    revokeByGrantId: async () => undefined,
  };
}

function artefactAdapter(kind: string, store: ArtefactStore, now: () => number): Adapter {
  const found = (record: Awaited<ReturnType<ArtefactStore['find']>>): AdapterPayload | undefined => {
    if (!record) return undefined;
    if (record.expiresAt !== null && record.expiresAt <= now()) return undefined;
    return { ...record.payload, ...(record.consumedAt !== null ? { consumed: record.consumedAt } : {}) } as AdapterPayload;
  };
  return {
    async upsert(id, payload, expiresIn) {
      await store.upsert(kind, id, {
        payload: payload as Record<string, unknown>,
        expiresAt: expiresIn ? now() + expiresIn : null,
        grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
        userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
      });
    },
    find: async (id) => found(await store.find(kind, id)),
    findByUid: async (uid) => found(await store.findByUid(kind, uid)),
    findByUserCode: async (userCode) => found(await store.findByUserCode(kind, userCode)),
    consume: (id) => store.consume(kind, id, now()),
    destroy: (id) => store.destroy(kind, id),
    revokeByGrantId: (grantId) => store.revokeByGrantId(grantId),
  };
}

import { conflict } from '../controlplane/errors';
import type { Queryable } from '../db/types';
import { tenantIdentityConfig, type JsonObject } from '../identity/tenant-config';
import { breakageMessage, contentHash, identitiesBrokenBy, managedSchemaMap, schemasOf, type TenantSchemas } from './tenant-schemas';

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

const fingerprint = (s: TenantSchemas) => JSON.stringify([s.defaultId, s.list.map((e) => [e.id, contentHash(e.schema)])]);

/** `services.identity.config` of a revision's services. */
export function identityConfigOf(services: unknown): JsonObject {
  const identity = isObject(services) ? services.identity : undefined;
  const config = isObject(identity) ? identity.config : undefined;
  return isObject(config) ? config : {};
}

/**
 * Refuses (409) a new revision of project `projectId` whose identity schemas (the list, a schema's content
 * or the default) would leave existing identities of the project invalid, saying how many.
 */
export async function assertRevisionKeepsIdentities(q: Queryable, projectId: string, nextServices: unknown): Promise<void> {
  const managed = await managedSchemaMap(q, projectId);
  const before = schemasOf(await tenantIdentityConfig(q, projectId), managed);
  const after = schemasOf(identityConfigOf(nextServices), managed);
  if (fingerprint(before) === fingerprint(after)) return;
  const broken = await identitiesBrokenBy(q, projectId, before, after);
  if (broken.count > 0) throw conflict(breakageMessage(broken, 'This change of the identity schemas'));
}

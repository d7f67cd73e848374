import { identitySchemaProblems, problemsMessage } from '../../shared/domain/identity-meta-schema';
import { badRequest, conflict } from '../kernel/errors';
import type { Queryable } from '../db/types';
import { configAt, tenantIdentityConfig, type JsonObject } from '../kernel/tenant-config';
import { breakageMessage, contentHash, declaredEntries, decodeUrl, identitiesBrokenBy, managedSchemaMap, schemasOf, type TenantSchemas } from './tenant-schemas';

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
  const currentConfig = await tenantIdentityConfig(q, projectId);
  const nextConfig = identityConfigOf(nextServices);
  assertDeclaredSchemasValid(currentConfig, nextConfig, managed);
  const before = schemasOf(currentConfig, managed);
  const after = schemasOf(nextConfig, managed);
  if (fingerprint(before) === fingerprint(after)) return;
  const broken = await identitiesBrokenBy(q, projectId, before, after);
  if (broken.count > 0) throw conflict(breakageMessage(broken, 'This change of the identity schemas'));
}

const AT = 'services.identity.config.identity';

/**
 * 400 for a new or changed entry of `identity.schemas` the identity service could not use (a url it cannot
 * read, a schema that is not a valid identity schema), or a new `default_schema_id` that names no entry.
 * Entries that did not change are left alone, so an old config never blocks an unrelated edit.
 */
function assertDeclaredSchemasValid(current: JsonObject, next: JsonObject, managed: Map<string, JsonObject>): void {
  const known = new Set(declaredEntries(current).map((e) => `${e.id}\u0000${e.url}`));
  const entries = declaredEntries(next);
  entries.forEach((entry, i) => {
    if (known.has(`${entry.id}\u0000${entry.url}`)) return;
    const schema = managed.get(entry.id) ?? decodeUrl(entry.url);
    if (!schema) {
      throw badRequest(
        `${AT}.schemas[${i}] ("${entry.id.slice(0, 80)}"): the url must be base64://… (the schema itself), preset://… or the entry's id must be one of the project's identity schemas.`,
      );
    }
    const problems = identitySchemaProblems(schema);
    if (problems.length > 0) throw badRequest(`${AT}.schemas[${i}] ("${entry.id.slice(0, 80)}") is not a valid identity schema:\n${problemsMessage(problems)}`);
  });
  const wanted = configAt(next, 'identity', 'default_schema_id');
  if (wanted !== undefined && wanted !== configAt(current, 'identity', 'default_schema_id')) {
    const names = entries.length > 0 ? entries.map((e) => e.id) : ['default'];
    if (typeof wanted !== 'string' || !names.includes(wanted)) {
      throw badRequest(`${AT}.default_schema_id must be the id of one of ${AT}.schemas: ${names.map((n) => `"${n}"`).join(', ')}.`);
    }
  }
}

/*
 * Where a project's identity schemas live in Ory's project config: `services.identity.config.identity.schemas`
 * (`[{id, url}]`, the url `base64://…` holding the schema itself) and `…identity.default_schema_id`.
 */

type JsonObject = Record<string, unknown>;

export interface SchemaEntry {
  id: string;
  url: string;
}

/** A JSON patch operation (RFC 6902), as Ory's jsonPatch takes it. */
export interface JsonPatchOp {
  op: 'add';
  path: string;
  value: unknown;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** UTF-8 text as base64 and back, in the browser and in Node alike. */
const toBase64 = (text: string) => btoa(Array.from(new TextEncoder().encode(text), (b) => String.fromCharCode(b)).join(''));
const fromBase64 = (b64: string) => new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)));

export const base64SchemaUrl = (schema: unknown): string => `base64://${toBase64(JSON.stringify(schema))}`;

/** The text of the schema a `base64://…` url holds, as its author wrote it, else null. */
export function textOfUrl(url: string): string | null {
  if (!url.startsWith('base64://')) return null;
  try {
    return fromBase64(url.slice('base64://'.length));
  } catch {
    return null;
  }
}

/** The schema a `base64://…` url holds, else null. */
export function schemaOfUrl(url: string): JsonObject | null {
  const text = textOfUrl(url);
  if (text === null) return null;
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

function identityConfig(services: JsonObject): JsonObject | undefined {
  const identity = services.identity;
  const config = isObject(identity) ? identity.config : undefined;
  return isObject(config) && isObject(config.identity) ? config.identity : undefined;
}

/** The schema entries a project's services declare. */
export function declaredSchemas(services: JsonObject): SchemaEntry[] {
  const list = identityConfig(services)?.schemas;
  return Array.isArray(list) ? list.filter((e): e is SchemaEntry => isObject(e) && typeof e.id === 'string' && typeof e.url === 'string') : [];
}

/**
 * The JSON patch that makes `schemaId` the default: the schema joins `identity.schemas` (given by
 * `candidates`, the project's managed schemas and Ory's presets as entries) unless it is declared already,
 * and `default_schema_id` names it. Only the identity part of the config is touched; other entries stay.
 * Null when there is no such schema (`default` stands for the built-in one while none is declared).
 */
export function defaultSchemaPatch(services: JsonObject, schemaId: string, candidates: SchemaEntry[]): JsonPatchOp[] | null {
  const entries = declaredSchemas(services);
  let schemas = entries;
  if (!entries.some((e) => e.id === schemaId)) {
    const candidate = candidates.find((c) => c.id === schemaId);
    if (candidate) schemas = [...entries, candidate];
    else if (!(schemaId === 'default' && entries.length === 0)) return null;
  }
  const value = { schemas, default_schema_id: schemaId };
  const identity = services.identity;
  if (!isObject(identity)) return [{ op: 'add', path: '/services/identity', value: { config: { identity: value } } }];
  if (!isObject(identity.config)) return [{ op: 'add', path: '/services/identity/config', value: { identity: value } }];
  if (!isObject(identity.config.identity)) return [{ op: 'add', path: '/services/identity/config/identity', value }];
  return [
    { op: 'add', path: '/services/identity/config/identity/schemas', value: schemas },
    { op: 'add', path: '/services/identity/config/identity/default_schema_id', value: schemaId },
  ];
}

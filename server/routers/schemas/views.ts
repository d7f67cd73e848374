import type { JsonPatch } from '@ory/client';
import type { z } from 'zod';
import type { identitySchemaPresetSchema, managedIdentitySchemaSchema } from '../../../shared/schemas/identity-schemas';

type Managed = z.infer<typeof managedIdentitySchemaSchema>;
type Preset = z.infer<typeof identitySchemaPresetSchema>;
type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema a `base64://…` url holds (what managed schemas and project configs carry), else null. */
export function schemaOfUrl(url: string): JsonObject | null {
  if (!url.startsWith('base64://')) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(url.slice('base64://'.length), 'base64').toString('utf8'));
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

const base64Url = (schema: unknown) => `base64://${Buffer.from(JSON.stringify(schema)).toString('base64')}`;

export function managedView(s: Managed) {
  return {
    id: s.id,
    name: s.name,
    createdAt: s.created_at,
    updatedAt: s.updated_at,
    contentHash: s.content_hash ?? null,
    schema: schemaOfUrl(s.blob_url) ?? {},
  };
}

const PRESET_TITLES: Record<string, string> = {
  'preset://email': 'Email',
  'preset://email-password': 'Email and password',
  'preset://username': 'Username',
  'preset://phone': 'Phone number',
  'preset://email-name': 'Email and name',
};

export function presetView(p: Preset) {
  const fallback = p.url.replace(/^preset:\/\//, '').replace(/[-_]/g, ' ');
  return { id: p.url, title: PRESET_TITLES[p.url] ?? fallback.charAt(0).toUpperCase() + fallback.slice(1), schema: p.schema };
}

function identityConfig(services: JsonObject): JsonObject | undefined {
  const identity = services.identity;
  const config = isObject(identity) ? identity.config : undefined;
  return isObject(config) && isObject(config.identity) ? config.identity : undefined;
}

const declared = (services: JsonObject): { id: string; url: string }[] => {
  const list = identityConfig(services)?.schemas;
  return Array.isArray(list) ? list.filter((e): e is { id: string; url: string } => isObject(e) && typeof e.id === 'string' && typeof e.url === 'string') : [];
};

/** Where a schema the identity service has comes from. */
export function sourceOf(id: string, managed: { id: string }[], presets: Preset[], services: JsonObject): 'managed' | 'preset' | 'built-in' | 'config' {
  if (managed.some((m) => m.id === id)) return 'managed';
  if (presets.some((p) => p.url === id)) return 'preset';
  return declared(services).length === 0 ? 'built-in' : 'config';
}

/**
 * The JSON patch that makes `schemaId` the default: the schema joins `identity.schemas` (a managed schema or
 * a preset, as `base64://…`) unless it is declared already, and `default_schema_id` names it. Only the
 * identity part of the config is touched. Null when there is no such schema.
 */
export function defaultSchemaPatch(services: JsonObject, schemaId: string, managed: Managed[], presets: Preset[]): JsonPatch[] | null {
  const entries = declared(services);
  let schemas = entries;
  if (!entries.some((e) => e.id === schemaId)) {
    const own = managed.find((m) => m.id === schemaId);
    const preset = presets.find((p) => p.url === schemaId);
    if (own) schemas = [...entries, { id: own.id, url: own.blob_url }];
    else if (preset) schemas = [...entries, { id: preset.url, url: base64Url(preset.schema) }];
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

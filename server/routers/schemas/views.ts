import type { JsonPatch } from '@ory/client';
import type { z } from 'zod';
import { base64SchemaUrl, declaredSchemas, defaultSchemaPatch, schemaOfUrl, textOfUrl } from '../../../shared/domain/identity-schema-config';
import type { identitySchemaPresetSchema, managedIdentitySchemaSchema } from '../../../shared/schemas/identity-schemas';

type Managed = z.infer<typeof managedIdentitySchemaSchema>;
type Preset = z.infer<typeof identitySchemaPresetSchema>;
type JsonObject = Record<string, unknown>;

export function managedView(s: Managed) {
  return {
    id: s.id,
    name: s.name,
    createdAt: s.created_at,
    updatedAt: s.updated_at,
    contentHash: s.content_hash ?? null,
    schema: schemaOfUrl(s.blob_url) ?? {},
    /** The schema's text as its author saved it, for the editor. */
    text: textOfUrl(s.blob_url) ?? '{}',
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

/** Where a schema the identity service has comes from. */
export function sourceOf(id: string, managed: { id: string }[], presets: Preset[], services: JsonObject): 'managed' | 'preset' | 'built-in' | 'config' {
  if (managed.some((m) => m.id === id)) return 'managed';
  if (presets.some((p) => p.url === id)) return 'preset';
  return declaredSchemas(services).length === 0 ? 'built-in' : 'config';
}

/** The JSON patch that makes `schemaId` the default, a managed schema or a preset joining the declared ones. */
export function defaultPatchFor(services: JsonObject, schemaId: string, managed: Managed[], presets: Preset[]): JsonPatch[] | null {
  const candidates = [...managed.map((m) => ({ id: m.id, url: m.blob_url })), ...presets.map((p) => ({ id: p.url, url: base64SchemaUrl(p.schema) }))];
  return defaultSchemaPatch(services, schemaId, candidates);
}

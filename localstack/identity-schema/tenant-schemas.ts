import { createHash } from 'node:crypto';
import type { ErrorObject } from 'ajv';
import { and, asc, eq, gt } from 'drizzle-orm';
import { compileIdentitySchema } from '../../shared/domain/identity-schema-compiler';
import { problemsMessage } from '../../shared/domain/identity-meta-schema';
import { managedIdentitySchemas } from './schema';
import type { Queryable } from '../db/types';
import { identities } from '../kernel/tables';
import { IDENTITY_SCHEMA } from './console-schema';
import { configAt, tenantIdentityConfig, type JsonObject } from '../kernel/tenant-config';
import { CONSOLE_NID } from '../kernel/tenant-id';
import { presetByUrl } from './presets';

/*
 * The identity schemas of a tenant, as Ory's project config declares them: `identity.schemas` (`[{id, url}]`,
 * the url `base64://…`, a `preset://…` or, for an id that names one of the project's managed schemas, that
 * schema) and `identity.default_schema_id`. A project that declares none has the one schema the console's
 * tenant has, `default`. An identity whose schema_id is `default` and names no declared schema is of the
 * project's default schema.
 */

export interface TenantSchema {
  id: string;
  schema: JsonObject;
}

export interface TenantSchemas {
  /** The default schema first. */
  list: TenantSchema[];
  defaultId: string;
}

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const DEFAULT_ALIASES = new Set(['default', Buffer.from('default').toString('base64url')]);
const BUILT_IN: TenantSchemas = { list: [{ id: 'default', schema: IDENTITY_SCHEMA }], defaultId: 'default' };

/** The schema a config url holds: `base64://…` or one of Ory's `preset://…`; undefined for anything else. */
export function decodeUrl(url: string): JsonObject | undefined {
  if (url.startsWith('base64://')) {
    try {
      const parsed: unknown = JSON.parse(Buffer.from(url.slice('base64://'.length), 'base64').toString('utf8'));
      return isObject(parsed) ? parsed : undefined;
    } catch {
      return undefined;
    }
  }
  const preset = presetByUrl(url);
  return preset ? (preset.schema as JsonObject) : undefined;
}

/** The declared schema entries of a config (`[{id, url}]`), as they are. */
export function declaredEntries(config: JsonObject): { id: string; url: string }[] {
  const list = configAt(config, 'identity', 'schemas');
  if (!Array.isArray(list)) return [];
  return list.filter((e): e is { id: string; url: string } => isObject(e) && typeof e.id === 'string' && typeof e.url === 'string');
}

/** Resolves a config against the project's managed schemas (by id). */
export function schemasOf(config: JsonObject, managed: Map<string, JsonObject>): TenantSchemas {
  const list: TenantSchema[] = [];
  for (const entry of declaredEntries(config)) {
    const schema = managed.get(entry.id) ?? decodeUrl(entry.url);
    if (schema && !list.some((s) => s.id === entry.id)) list.push({ id: entry.id, schema });
  }
  if (list.length === 0) return BUILT_IN;
  const wanted = configAt(config, 'identity', 'default_schema_id');
  const defaultId =
    typeof wanted === 'string' && list.some((s) => s.id === wanted) ? wanted : (list.find((s) => s.id === 'default') ?? list[0]!).id;
  return { list: [...list.filter((s) => s.id === defaultId), ...list.filter((s) => s.id !== defaultId)], defaultId };
}

export async function managedSchemaMap(q: Queryable, projectId: string): Promise<Map<string, JsonObject>> {
  const rows = await q.orm
    .select({ id: managedIdentitySchemas.id, content: managedIdentitySchemas.content, content_text: managedIdentitySchemas.content_text })
    .from(managedIdentitySchemas)
    .where(eq(managedIdentitySchemas.project_id, projectId));
  // From the author's text: its traits keep their order (jsonb's does not), and so do the forms made of them.
  return new Map(rows.map((r) => [r.id, r.content_text === null ? r.content : (JSON.parse(r.content_text) as JsonObject)]));
}

/** The schemas tenant `nid` has now (its project's current revision). */
export async function tenantSchemas(q: Queryable, nid: string): Promise<TenantSchemas> {
  if (nid === CONSOLE_NID) return BUILT_IN;
  return schemasOf(await tenantIdentityConfig(q, nid), await managedSchemaMap(q, nid));
}

/** The schema an identity's schema_id names, or undefined when the tenant has none by that id. */
export function schemaFor(schemas: TenantSchemas, id: string): TenantSchema | undefined {
  const exact = schemas.list.find((s) => s.id === id);
  if (exact) return exact;
  if (DEFAULT_ALIASES.has(id)) return schemas.list.find((s) => s.id === schemas.defaultId);
  return undefined;
}

export const defaultSchema = (schemas: TenantSchemas): TenantSchema => schemaFor(schemas, schemas.defaultId)!;

// ---- traits validation (the shared compiler: limits, RE2 patterns, compiled once per content) ----

export const contentHash = (schema: unknown) => createHash('sha256').update(JSON.stringify(schema)).digest('hex');

/** `traits.email: must match format "email"` for each failure, the field named as a dotted path. */
function describe(errors: ErrorObject[]): string {
  return errors
    .map((e) => {
      const missing = e.keyword === 'required' ? `.${String(e.params.missingProperty)}` : '';
      const extra = e.keyword === 'additionalProperties' ? `.${String(e.params.additionalProperty)}` : '';
      const path = `${e.instancePath.slice(1).replaceAll('/', '.')}${missing}${extra}`;
      if (e.keyword === 'required') return `${path}: is required`;
      if (e.keyword === 'additionalProperties') return `${path}: is not a trait of the identity schema`;
      return `${path}: ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

/** Null when the traits match the schema, else what is wrong, each field named. */
export function traitsProblem(schema: JsonObject, traits: unknown): string | null {
  const compiled = compileIdentitySchema(schema);
  if (!compiled.ok) {
    // A schema stored before it was checked (an old config): say so instead of failing the request.
    return `traits: the identity schema cannot be used (${problemsMessage(compiled.problems).replaceAll('\n', '; ')}); fix the schema`;
  }
  return compiled.validate({ traits }) ? null : describe(compiled.validate.errors ?? []);
}

// ---- existing identities stay valid ----

export interface Breakage {
  count: number;
  /** The first problem found, to say what breaks. */
  example: string | null;
}

/**
 * How many identities of tenant `nid` match their schema under `before` but would not under `after` (their
 * schema changed and their traits no longer match it, or their schema is gone).
 */
export async function identitiesBrokenBy(q: Queryable, nid: string, before: TenantSchemas, after: TenantSchemas): Promise<Breakage> {
  let count = 0;
  let example: string | null = null;
  let afterId: string | null = null;
  for (;;) {
    const rows: { id: string; schema_id: string; traits: unknown }[] = await q.orm
      .select({ id: identities.id, schema_id: identities.schema_id, traits: identities.traits })
      .from(identities)
      .where(afterId ? and(eq(identities.nid, nid), gt(identities.id, afterId)) : eq(identities.nid, nid))
      .orderBy(asc(identities.id))
      .limit(1000);
    for (const row of rows) {
      const was = schemaFor(before, row.schema_id);
      const will = schemaFor(after, row.schema_id);
      if (was && will && contentHash(was.schema) === contentHash(will.schema)) continue;
      if (was && traitsProblem(was.schema, row.traits) !== null) continue; // already invalid: not this change's doing
      const problem = will ? traitsProblem(will.schema, row.traits) : `the identity schema "${row.schema_id}" would no longer exist`;
      if (problem === null) continue;
      count++;
      example ??= problem;
    }
    if (rows.length < 1000) break;
    afterId = rows.at(-1)!.id;
  }
  return { count, example };
}

/** The sentence of a refusal: how many identities would break, and what to do. */
export function breakageMessage(breakage: Breakage, change: string): string {
  const who = breakage.count === 1 ? '1 existing identity' : `${breakage.count} existing identities`;
  return (
    `${change} would make ${who} of this project invalid (for example ${breakage.example ?? 'their traits no longer match'}). ` +
    'Make the schema accept their traits (an optional field instead of a required one) or update those identities first.'
  );
}

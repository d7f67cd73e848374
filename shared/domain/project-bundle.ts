/**
 * A whole project as one file (format `ory-console-project`, version 1), beside the configuration-only file of
 * `config-export.ts` whose procedures stay as they are. The file holds:
 *
 * - `name`, `services` and `secrets`: the configuration as the configuration file has it, every secret
 *   redacted and named by its JSON pointer. The configuration carries the email templates
 *   (`services.identity.config.courier.templates`), the permission rules (the OPL in
 *   `services.permission.config.namespaces`) and the declared identity schemas (base64 URLs).
 * - `identity_schemas`: the managed identity schemas, with the id they had in the exporting project. On import
 *   each is created again under a new id, and the configuration and the identities naming the old id are
 *   given the new one.
 * - `themes`: the branding themes in the order they were made, the first being the project's built-in theme
 *   (an import restyles the target's built-in theme with it and adds the others); `active` marks the one in use.
 * - `oauth2_clients`: the OAuth2 clients without their secrets; an import creates them under the same
 *   `client_id` with new secrets, answered once.
 * - `relation_tuples`: every relationship.
 * - `identities` (only when asked for): traits, state and metadata, and the password's hash
 *   (`password_hash`) where there is one, which the identity import takes as `hashed_password`. Other
 *   credentials (social sign-in, passkeys, TOTP, recovery codes) are not carried: those identities sign in
 *   again or recover their account.
 *
 * Bounds, checked on export and import alike: the counts below, and the file itself is at most `BUNDLE_MAX_BYTES`
 * (the console's request limit).
 */

import { formatNumber } from './format';

export const BUNDLE_FORMAT = 'ory-console-project';
export const BUNDLE_VERSION = 1;

export const BUNDLE_LIMITS = {
  identity_schemas: 50,
  themes: 20,
  oauth2_clients: 500,
  relation_tuples: 5000,
  identities: 1000,
} as const;
export type BundlePart = keyof typeof BUNDLE_LIMITS;

/** The console's API takes requests of at most 1 MiB: a file leaves room for the rest of the import's request. */
export const BUNDLE_MAX_BYTES = 1000 * 1024;

export const BUNDLE_PART_LABELS: Record<BundlePart, [one: string, many: string]> = {
  identity_schemas: ['identity schema', 'identity schemas'],
  themes: ['branding theme', 'branding themes'],
  oauth2_clients: ['OAuth2 client', 'OAuth2 clients'],
  relation_tuples: ['relationship', 'relationships'],
  identities: ['identity', 'identities'],
};

export const countOf = (part: BundlePart, n: number) => `${formatNumber(n)} ${BUNDLE_PART_LABELS[part][n === 1 ? 0 : 1]}`;

/** How many of each part, in words (parts not given are left out): what a file holds, and what an import wrote. */
export function summaryOfCounts(counts: Partial<Record<BundlePart, number>>): { part: BundlePart; count: number; text: string }[] {
  return (Object.keys(BUNDLE_LIMITS) as BundlePart[]).flatMap((part) => {
    const count = counts[part];
    return count === undefined ? [] : [{ part, count, text: countOf(part, count) }];
  });
}

/** What a file holds, in words: for the dialog before an import. */
export const bundleSummary = (file: { [K in BundlePart]?: unknown[] | undefined }) =>
  summaryOfCounts(Object.fromEntries((Object.keys(BUNDLE_LIMITS) as BundlePart[]).flatMap((part) => (file[part] ? [[part, file[part].length]] : []))));

/** The refusal of a part with more objects than a file holds. */
export const tooMany = (part: BundlePart) =>
  `A project file holds at most ${countOf(part, BUNDLE_LIMITS[part])}; this project has more. Move the rest separately.`;

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `services` with each managed schema's old id (in the declared schemas and the default) replaced by its new one. */
export function remapSchemaIds(services: JsonObject, ids: ReadonlyMap<string, string>): JsonObject {
  const identity = isObject(services.identity) && isObject(services.identity.config) && isObject(services.identity.config.identity) ? services.identity.config.identity : null;
  if (!identity || ids.size === 0) return services;
  const next: JsonObject = { ...identity };
  if (Array.isArray(identity.schemas)) {
    next.schemas = identity.schemas.map((e: unknown) => (isObject(e) && typeof e.id === 'string' && ids.has(e.id) ? { ...e, id: ids.get(e.id) } : e));
  }
  if (typeof identity.default_schema_id === 'string' && ids.has(identity.default_schema_id)) next.default_schema_id = ids.get(identity.default_schema_id);
  const svc = services.identity as JsonObject;
  return { ...services, identity: { ...svc, config: { ...(svc.config as JsonObject), identity: next } } };
}

import { eq } from 'drizzle-orm';
import { projectRevisions, projects } from './tables';
import type { Queryable } from './queryable';
import { CONSOLE_NID } from './tenant-id';

export type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The identity service's configuration of tenant `nid`: `services.identity.config` of its project's current
 * revision (Ory's project config: `identity.schemas`, `identity.default_schema_id`, `courier.templates`,
 * `courier.smtp`, …), or `{}` for the console's own tenant and a project that has set none. The data plane
 * reads what the control plane's project revisions hold, so a `patchProject` takes effect on the next request.
 */
export async function tenantIdentityConfig(q: Queryable, nid: string): Promise<JsonObject> {
  if (nid === CONSOLE_NID) return {};
  const [row] = await q.orm
    .select({ services: projectRevisions.services })
    .from(projects)
    .innerJoin(projectRevisions, eq(projectRevisions.id, projects.current_revision_id))
    .where(eq(projects.id, nid));
  const identity = isObject(row?.services) ? row.services.identity : undefined;
  const config = isObject(identity) ? identity.config : undefined;
  return isObject(config) ? config : {};
}

/** The value at a path of a config object (`configAt(config, 'courier', 'smtp')`), or undefined. */
export function configAt(config: JsonObject, ...path: string[]): unknown {
  let at: unknown = config;
  for (const key of path) {
    if (!isObject(at)) return undefined;
    at = at[key];
  }
  return at;
}

/**
 * A project's permission rules as its configuration holds them, the way Ory does:
 * `services.permission.config.namespaces` is `{ location: "base64://<OPL>" }` (the Ory Permission Language), or
 * a legacy list of `{ id, name }` namespaces without rules. Parsed rules are kept by text, so a check reads
 * them without parsing again.
 */
import { LRUCache } from 'lru-cache';
import type { Namespace } from '../../shared/permissions/model';
import { parseOpl, type ParsedOpl } from '../../shared/permissions/opl';

export const BASE64_PREFIX = 'base64://';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ProjectRules {
  /** The OPL text, or null when the project has none (or only legacy namespaces). */
  opl: string | null;
  namespaces: Namespace[];
  /** Problems of the stored text: a project whose rules do not parse has no namespaces until they are fixed. */
  errors: ParsedOpl['errors'];
}

const parsed = new LRUCache<string, ParsedOpl>({ max: 200 });

export function parseCached(opl: string): ParsedOpl {
  let result = parsed.get(opl);
  if (!result) {
    result = parseOpl(opl);
    parsed.set(opl, result);
  }
  return result;
}

/** The `namespaces` value of a permission config (`services.permission.config`). */
export function namespacesConfigOf(services: unknown): unknown {
  const permission = isObject(services) ? services.permission : undefined;
  const config = isObject(permission) ? permission.config : undefined;
  return isObject(config) ? config.namespaces : undefined;
}

export function oplOfLocation(location: string): string | null {
  if (!location.startsWith(BASE64_PREFIX)) return null;
  return Buffer.from(location.slice(BASE64_PREFIX.length), 'base64').toString('utf8');
}

export function locationOfOpl(opl: string): string {
  return BASE64_PREFIX + Buffer.from(opl, 'utf8').toString('base64');
}

export function rulesOfServices(services: unknown): ProjectRules {
  const value = namespacesConfigOf(services);
  if (isObject(value) && typeof value.location === 'string') {
    const opl = oplOfLocation(value.location);
    if (opl === null) return { opl: null, namespaces: [], errors: [] };
    const { namespaces, errors } = parseCached(opl);
    return { opl, namespaces, errors };
  }
  if (Array.isArray(value)) {
    const namespaces = value.flatMap((n) => (isObject(n) && typeof n.name === 'string' ? [{ name: n.name, relations: [] }] : []));
    return { opl: null, namespaces, errors: [] };
  }
  return { opl: null, namespaces: [], errors: [] };
}

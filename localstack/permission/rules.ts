/**
 * A project's permission rules as its configuration holds them (see shared/permissions/config.ts). Parsed
 * rules are kept by text, so a check reads them without parsing again.
 */
import { LRUCache } from 'lru-cache';
import { legacyNamespacesOf, oplOfServices, permissionModeOf } from '../../shared/permissions/config';
import type { EngineMode } from '../../shared/permissions/engine';
import type { Namespace } from '../../shared/permissions/model';
import { parseOpl, type ParsedOpl } from '../../shared/permissions/opl';

export { locationOfOpl } from '../../shared/permissions/config';

export interface ProjectRules {
  /** The OPL text, or null when the project has none (or only legacy namespaces). */
  opl: string | null;
  namespaces: Namespace[];
  /** Problems of the stored text: a project whose rules do not parse has no namespaces until they are fixed. */
  errors: ParsedOpl['errors'];
  /** Keto's strict mode and rule expansion, as the project's permission config sets them. */
  mode: EngineMode;
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

export function rulesOfServices(services: unknown): ProjectRules {
  const opl = oplOfServices(services);
  if (opl !== null) {
    const { namespaces, errors } = parseCached(opl);
    return { opl, namespaces, errors, mode: permissionModeOf(services) };
  }
  return { opl: null, namespaces: legacyNamespacesOf(services).map((name) => ({ name, relations: [] })), errors: [], mode: permissionModeOf(services) };
}

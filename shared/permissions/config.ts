/**
 * Where a project keeps its permission rules, as Ory does: `services.permission.config.namespaces` is
 * `{ location: "base64://<text>" }` for the Ory Permission Language, or a legacy list of `{ id, name }`.
 */
export const BASE64_PREFIX = 'base64://';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `namespaces` value of a project's services. */
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

/** The rules' text a project's services hold, or null. */
export function oplOfServices(services: unknown): string | null {
  const value = namespacesConfigOf(services);
  return isObject(value) && typeof value.location === 'string' ? oplOfLocation(value.location) : null;
}

/** Legacy namespaces (names without rules) a project's services list. */
export function legacyNamespacesOf(services: unknown): string[] {
  const value = namespacesConfigOf(services);
  return Array.isArray(value) ? value.flatMap((n) => (isObject(n) && typeof n.name === 'string' ? [n.name] : [])) : [];
}

/** The JSON patch that sets the rules, keeping every other field of the permission service's config. */
export function rulesPatch(services: unknown, opl: string): { op: 'add'; path: string; value: unknown }[] {
  const permission = isObject(services) ? services.permission : undefined;
  const location = { location: locationOfOpl(opl) };
  // The namespaces' other settings (Keto's `experimental_strict_mode`) stay as they are.
  if (isObject(permission) && isObject(permission.config) && isObject(permission.config.namespaces)) {
    return [{ op: 'add', path: '/services/permission/config/namespaces/location', value: location.location }];
  }
  if (isObject(permission) && isObject(permission.config)) return [{ op: 'add', path: '/services/permission/config/namespaces', value: location }];
  if (isObject(permission)) return [{ op: 'add', path: '/services/permission/config', value: { namespaces: location } }];
  return [{ op: 'add', path: '/services/permission', value: { config: { namespaces: location } } }];
}

/**
 * Keto's feature flags of a project's permission config: `feature_flags.strict_mode` (or the older
 * `namespaces.experimental_strict_mode`), and `feature_flags.expand_rewrites`, which this stack takes as on unless
 * the project sets it to false, so an expansion shows what the rules derive.
 */
export function permissionModeOf(services: unknown): { strict: boolean; expandRewrites: boolean } {
  const permission = isObject(services) ? services.permission : undefined;
  const config = isObject(permission) ? permission.config : undefined;
  const flags = isObject(config) && isObject(config.feature_flags) ? config.feature_flags : {};
  const namespaces = isObject(config) ? config.namespaces : undefined;
  const legacyStrict = isObject(namespaces) && namespaces.experimental_strict_mode === true;
  return { strict: flags.strict_mode === true || legacyStrict, expandRewrites: flags.expand_rewrites !== false };
}

/**
 * The JSON patch that sets Keto's feature flags, keeping every other field of the permission service's config.
 * Turning strict mode off also turns off the older `namespaces.experimental_strict_mode`, which would keep it on.
 */
export function featureFlagsPatch(
  services: unknown,
  flags: { strict_mode?: boolean; expand_rewrites?: boolean },
): { op: 'add'; path: string; value: unknown }[] {
  const permission = isObject(services) ? services.permission : undefined;
  const config = isObject(permission) ? permission.config : undefined;
  const set = Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined));
  const ops: { op: 'add'; path: string; value: unknown }[] = [];
  if (!isObject(permission)) ops.push({ op: 'add', path: '/services/permission', value: { config: { feature_flags: set } } });
  else if (!isObject(config)) ops.push({ op: 'add', path: '/services/permission/config', value: { feature_flags: set } });
  else if (!isObject(config.feature_flags)) ops.push({ op: 'add', path: '/services/permission/config/feature_flags', value: set });
  else for (const [flag, value] of Object.entries(set)) ops.push({ op: 'add', path: `/services/permission/config/feature_flags/${flag}`, value });
  if (flags.strict_mode === false && isObject(config) && isObject(config.namespaces) && config.namespaces.experimental_strict_mode === true) {
    ops.push({ op: 'add', path: '/services/permission/config/namespaces/experimental_strict_mode', value: false });
  }
  return ops;
}

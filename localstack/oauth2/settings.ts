import type { ScopeStrategy } from './scope-strategy';

/**
 * The settings of a project's authorization server, read from its `services.oauth2.config` (Hydra's
 * configuration keys). Anything missing or unreadable falls back to Hydra's default, so a project whose
 * config is empty gets Hydra's behaviour.
 */
export interface OAuth2Settings {
  urls: {
    login: string | null;
    consent: string | null;
    logout: string | null;
    error: string | null;
    postLogoutRedirect: string | null;
    /** The issuer of the project's tokens (Hydra's `urls.self.issuer`), or null for the project's own base. */
    issuer: string | null;
    /** Where a browser enters a device's user code (Hydra's `urls.device.verification`). */
    deviceVerification: string | null;
    /** Where a browser lands once a device is signed in (Hydra's `urls.device.success`). */
    deviceSuccess: string | null;
  };
  /** Lifespans in seconds. */
  ttl: { accessToken: number; refreshToken: number; idToken: number; authCode: number; loginConsentRequest: number; deviceUserCode: number };
  /** Seconds a device waits between two polls of the token endpoint; a quicker poll is answered slow_down. */
  devicePollingInterval: number;
  /** The JWT-bearer grant (RFC 7523): whether an assertion must carry `jti` and `iat`, and its longest lifetime in seconds. */
  jwtBearer: { jtiOptional: boolean; iatOptional: boolean; maxTtl: number };
  accessTokenStrategy: 'opaque' | 'jwt';
  /** How requested scopes are matched against a client's (Hydra's `strategies.scope`, wildcard by default). */
  scopeStrategy: ScopeStrategy;
  pkce: { enforced: boolean; enforcedForPublicClients: boolean };
  subjectTypes: Array<'public' | 'pairwise'>;
  pairwiseSalt: string;
  cookieSameSite: 'Strict' | 'Lax' | 'None';
  /** OpenID Connect Dynamic Client Registration (Hydra's `oidc.dynamic_client_registration`), off by default. */
  dynamicRegistration: { enabled: boolean; defaultScope: string[] | null };
}

const UNITS: Record<string, number> = { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/** Seconds of a Go duration as Hydra writes them (`1h`, `30m`, `1h30m`, `720h`), or null when it is not one. */
export function parseDuration(text: string): number | null {
  const parts = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h))+$/.test(text) ? text.match(/\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h)/g) : null;
  if (!parts) return null;
  let seconds = 0;
  for (const part of parts) {
    const [, value, unit] = /^(\d+(?:\.\d+)?)(\D+)$/.exec(part) ?? [];
    seconds += Number(value) * (UNITS[unit ?? ''] ?? 0);
  }
  return Math.floor(seconds);
}

const at = (config: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), config);

const duration = (config: unknown, path: string, fallback: number) => {
  const value = at(config, path);
  const seconds = typeof value === 'string' ? parseDuration(value) : null;
  return seconds !== null && seconds > 0 ? seconds : fallback;
};
const url = (config: unknown, path: string) => {
  const value = at(config, path);
  return typeof value === 'string' && URL.canParse(value) ? value : null;
};
const bool = (config: unknown, path: string, fallback: boolean) => {
  const value = at(config, path);
  return typeof value === 'boolean' ? value : fallback;
};

export function resolveSettings(config: unknown): OAuth2Settings {
  const strategy = at(config, 'strategies.access_token');
  const sameSite = at(config, 'serve.cookies.same_site_mode');
  const types = at(config, 'oidc.subject_identifiers.supported_types');
  const subjectTypes = Array.isArray(types) ? [...new Set(types.filter((t) => t === 'public' || t === 'pairwise'))] : [];
  const salt = at(config, 'oidc.subject_identifiers.pairwise.salt');
  const defaultScope = at(config, 'oidc.dynamic_client_registration.default_scope');
  return {
    urls: {
      login: url(config, 'urls.login'),
      consent: url(config, 'urls.consent'),
      logout: url(config, 'urls.logout'),
      error: url(config, 'urls.error'),
      postLogoutRedirect: url(config, 'urls.post_logout_redirect'),
      issuer: url(config, 'urls.self.issuer'),
      deviceVerification: url(config, 'urls.device.verification'),
      deviceSuccess: url(config, 'urls.device.success'),
    },
    ttl: {
      accessToken: duration(config, 'ttl.access_token', 3600),
      refreshToken: duration(config, 'ttl.refresh_token', 720 * 3600),
      idToken: duration(config, 'ttl.id_token', 3600),
      authCode: duration(config, 'ttl.auth_code', 600),
      loginConsentRequest: duration(config, 'ttl.login_consent_request', 1800),
      deviceUserCode: duration(config, 'ttl.device_user_code', 900),
    },
    devicePollingInterval: duration(config, 'oauth2.device_authorization.token_polling_interval', 5),
    jwtBearer: {
      jtiOptional: bool(config, 'oauth2.grant.jwt.jti_optional', false),
      iatOptional: bool(config, 'oauth2.grant.jwt.iat_optional', false),
      maxTtl: duration(config, 'oauth2.grant.jwt.max_ttl', 720 * 3600),
    },
    accessTokenStrategy: strategy === 'jwt' ? 'jwt' : 'opaque',
    scopeStrategy: at(config, 'strategies.scope') === 'exact' ? 'exact' : 'wildcard',
    pkce: {
      enforced: bool(config, 'oauth2.pkce.enforced', false),
      enforcedForPublicClients: bool(config, 'oauth2.pkce.enforced_for_public_clients', false),
    },
    subjectTypes: subjectTypes.length > 0 ? (subjectTypes as Array<'public' | 'pairwise'>) : ['public'],
    pairwiseSalt: typeof salt === 'string' ? salt : '',
    cookieSameSite: sameSite === 'Strict' || sameSite === 'None' ? sameSite : 'Lax',
    dynamicRegistration: {
      enabled: bool(config, 'oidc.dynamic_client_registration.enabled', false),
      defaultScope: Array.isArray(defaultScope) ? defaultScope.filter((s): s is string => typeof s === 'string' && s !== '') : null,
    },
  };
}

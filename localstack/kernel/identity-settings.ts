import type { Queryable } from './queryable';
import { parseGoDuration } from './go-duration';
import { configAt, tenantIdentityConfig, type JsonObject } from './tenant-config';
import { CONSOLE_NID } from './tenant-id';

/** A self-service flow with a page of its own in the tenant's UI. */
export type UiFlowKind = 'login' | 'registration' | 'recovery' | 'verification' | 'settings' | 'error';

/**
 * What the flows of a tenant do, read from its identity config (`services.identity.config`, Kratos'
 * configuration names: `selfservice.methods.*`, `selfservice.flows.*`, `session.*`). A setting the
 * project has not set takes the default a project of Ory Network starts with.
 */
export interface IdentitySettings {
  methods: {
    password: boolean;
    code: boolean;
    profile: boolean;
    /** `selfservice.methods.totp.enabled`: an authenticator app as a second factor (off unless the project turns it on). */
    totp: boolean;
    /** `selfservice.methods.lookup_secret.enabled`: backup recovery codes as a second factor (off unless turned on). */
    lookup_secret: boolean;
    /** `selfservice.methods.passkey.enabled`: sign-up and sign-in with a passkey (off unless turned on). */
    passkey: boolean;
    /** `selfservice.methods.webauthn.enabled` with `config.passwordless: false`: security keys as a second factor. */
    webauthn: boolean;
  };
  /**
   * `selfservice.methods.code`: `passwordless_enabled` signs in with a one-time code instead of a password,
   * `mfa_enabled` asks one as a second factor (Kratos' schema allows one of the two);
   * `config.lifespan` (null: the stack's default) and `config.max_submissions` bound each code; with
   * `config.missing_credential_fallback_enabled` an identity whose schema marks no code identifier gets the
   * code at its verifiable address.
   */
  codeLogin: { passwordless: boolean; mfa: boolean; lifespanMs: number | null; maxSubmissions: number; fallback: boolean };
  /** `selfservice.methods.passkey.config.rp`: the relying party; unset parts come from the tenant's public URL. */
  passkeyRp: { id: string | null; displayName: string | null; origins: string[] };
  /** `selfservice.methods.webauthn.config.rp`: the relying party of security keys. */
  webauthnRp: { id: string | null; displayName: string | null; origins: string[] };
  /** `selfservice.methods.totp.config.issuer`, or null for the tenant's host. */
  totpIssuer: string | null;
  /** `session.whoami.required_aal`: `highest_available` refuses an aal1 session of an identity that has a second factor. */
  whoamiRequiredAal: RequiredAal;
  /** `selfservice.flows.settings.required_aal`, as the settings flow applies it. */
  settingsRequiredAal: RequiredAal;
  password: {
    minLength: number;
    identifierSimilarity: boolean;
    breachedCheck: boolean;
  };
  registrationEnabled: boolean;
  /** `selfservice.flows.login.style: identifier_first`: login asks the identifier first, then the methods the account has. */
  identifierFirst: boolean;
  recovery: { enabled: boolean; use: 'code' | 'link'; lifespanMs: number | null; notifyUnknownRecipients: boolean };
  verification: { enabled: boolean; use: 'code' | 'link'; lifespanMs: number | null; notifyUnknownRecipients: boolean };
  /** `session.lifespan`, or null for the stack's own default. */
  sessionLifespanMs: number | null;
  /**
   * `session.earliest_possible_extend`: a session is extended only once its expiry is this close (Kratos'
   * CanBeRefreshed); null (unset) means the lifespan, so any working session can be extended.
   */
  earliestPossibleExtendMs: number | null;
  /** `session.cookie.*`: the session cookie's name (null: the tenant's own), domain, SameSite and whether it outlives the browser. */
  sessionCookie: SessionCookieSettings;
  /** `selfservice.allowed_return_urls`: where a flow may send the browser besides the tenant's UI. */
  allowedReturnUrls: string[];
  /** `selfservice.default_browser_return_url`, or null for the tenant's UI. */
  defaultReturnUrl: string | null;
  /**
   * `selfservice.flows.{kind}.after.default_browser_return_url` and its per-method form
   * `…after.{method}.default_browser_return_url`: where a browser goes after the flow when it named no return_to.
   */
  afterReturnUrls: Partial<Record<AfterFlowKind, { url: string | null; byMethod: Record<string, string> }>>;
  /** `selfservice.flows.{kind}.ui_url` the project set; a kind missing here uses the tenant's own UI. */
  uiUrls: Partial<Record<UiFlowKind, string>>;
}

export type AfterFlowKind = 'login' | 'registration' | 'settings' | 'recovery' | 'verification' | 'logout';

export interface SessionCookieSettings {
  name: string | null;
  domain: string | null;
  sameSite: 'lax' | 'strict' | 'none';
  /** `persistent: false` sets a browser-session cookie (no Max-Age, no Expires). */
  persistent: boolean;
  /** `path`, or null for the tenant's base path. */
  path: string | null;
  /** `secure` (Kratos reads the string "true"/"false" its schema types, or a boolean), or null: secure over HTTPS. */
  secure: boolean | null;
}

const secureFlag = (v: unknown): boolean | null => (v === true || v === 'true' ? true : v === false || v === 'false' ? false : null);
const sameSite = (v: unknown): SessionCookieSettings['sameSite'] => (v === 'Strict' ? 'strict' : v === 'None' ? 'none' : 'lax');

/** The session cookie settings of a config object (what a tenant resolves on every request). */
export function sessionCookieSettingsOf(config: JsonObject): SessionCookieSettings {
  const at = (...path: string[]) => configAt(config, 'session', 'cookie', ...path);
  const name = text(at('name'));
  const path = text(at('path'));
  return {
    // A cookie name is a token (RFC 6265): anything else keeps the tenant's own name.
    name: name && /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name) ? name : null,
    domain: text(at('domain')),
    sameSite: sameSite(at('same_site')),
    persistent: bool(at('persistent'), true),
    // A path is a cookie attribute's value: anything that could end the attribute keeps the tenant's own path.
    path: path && /^\/[!-:<-~]*$/.test(path) ? path : null,
    secure: secureFlag(at('secure')),
  };
}

export type RequiredAal = 'aal1' | 'highest_available';
const requiredAal = (v: unknown): RequiredAal => (v === 'aal1' ? 'aal1' : 'highest_available');

const bool = (v: unknown, fallback: boolean) => (typeof v === 'boolean' ? v : fallback);
const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

/** A Go duration of the config in milliseconds, or null when unset, unreadable or not positive. */
function durationMs(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const ns = parseGoDuration(v);
  return ns === null || ns <= 0n ? null : Number(ns / 1_000_000n);
}

const strings = (v: unknown) => (Array.isArray(v) ? v.filter((u): u is string => typeof u === 'string' && u !== '') : []);

const use = (v: unknown): 'code' | 'link' => (v === 'link' ? 'link' : 'code');

/** The settings of a config object (exported for the rules' own tests). */
export function settingsOf(config: JsonObject): IdentitySettings {
  const at = (...path: string[]) => configAt(config, ...path);
  const flow = (kind: 'recovery' | 'verification') => ({
    enabled: bool(at('selfservice', 'flows', kind, 'enabled'), true),
    use: use(at('selfservice', 'flows', kind, 'use')),
    lifespanMs: durationMs(at('selfservice', 'flows', kind, 'lifespan')),
    notifyUnknownRecipients: bool(at('selfservice', 'flows', kind, 'notify_unknown_recipients'), false),
  });
  const minLength = at('selfservice', 'methods', 'password', 'config', 'min_password_length');
  const uiUrls: Partial<Record<UiFlowKind, string>> = {};
  for (const kind of ['login', 'registration', 'recovery', 'verification', 'settings', 'error'] as const) {
    const url = text(at('selfservice', 'flows', kind, 'ui_url'));
    if (url) uiUrls[kind] = url;
  }
  const allowed = at('selfservice', 'allowed_return_urls');
  const afterReturnUrls: IdentitySettings['afterReturnUrls'] = {};
  for (const kind of ['login', 'registration', 'settings', 'recovery', 'verification', 'logout'] as const) {
    const after = at('selfservice', 'flows', kind, 'after');
    const byMethod: Record<string, string> = {};
    if (after && typeof after === 'object' && !Array.isArray(after)) {
      for (const [method, value] of Object.entries(after)) {
        const url = value && typeof value === 'object' ? text((value as Record<string, unknown>).default_browser_return_url) : null;
        if (url) byMethod[method] = url;
      }
    }
    const url = text(at('selfservice', 'flows', kind, 'after', 'default_browser_return_url'));
    if (url || Object.keys(byMethod).length) afterReturnUrls[kind] = { url, byMethod };
  }
  const codePasswordless = bool(at('selfservice', 'methods', 'code', 'passwordless_enabled'), false);
  const maxSubmissions = at('selfservice', 'methods', 'code', 'config', 'max_submissions');
  return {
    methods: {
      password: bool(at('selfservice', 'methods', 'password', 'enabled'), true),
      // Kratos: `passwordless_enabled` turns the code method on as well.
      code: bool(at('selfservice', 'methods', 'code', 'enabled'), true) || codePasswordless,
      profile: bool(at('selfservice', 'methods', 'profile', 'enabled'), true),
      totp: bool(at('selfservice', 'methods', 'totp', 'enabled'), false),
      lookup_secret: bool(at('selfservice', 'methods', 'lookup_secret', 'enabled'), false),
      passkey: bool(at('selfservice', 'methods', 'passkey', 'enabled'), false),
      // Security keys that sign in without a password (`config.passwordless: true`) are not offered.
      webauthn: bool(at('selfservice', 'methods', 'webauthn', 'enabled'), false) && at('selfservice', 'methods', 'webauthn', 'config', 'passwordless') !== true,
    },
    codeLogin: {
      passwordless: codePasswordless,
      mfa: !codePasswordless && bool(at('selfservice', 'methods', 'code', 'mfa_enabled'), false),
      lifespanMs: durationMs(at('selfservice', 'methods', 'code', 'config', 'lifespan')),
      maxSubmissions: typeof maxSubmissions === 'number' && Number.isInteger(maxSubmissions) && maxSubmissions >= 1 && maxSubmissions <= 255 ? maxSubmissions : 5,
      fallback: bool(at('selfservice', 'methods', 'code', 'config', 'missing_credential_fallback_enabled'), false),
    },
    passkeyRp: {
      id: text(at('selfservice', 'methods', 'passkey', 'config', 'rp', 'id')),
      displayName: text(at('selfservice', 'methods', 'passkey', 'config', 'rp', 'display_name')),
      origins: strings(at('selfservice', 'methods', 'passkey', 'config', 'rp', 'origins')),
    },
    webauthnRp: {
      id: text(at('selfservice', 'methods', 'webauthn', 'config', 'rp', 'id')),
      displayName: text(at('selfservice', 'methods', 'webauthn', 'config', 'rp', 'display_name')),
      origins: strings(at('selfservice', 'methods', 'webauthn', 'config', 'rp', 'origins')),
    },
    totpIssuer: text(at('selfservice', 'methods', 'totp', 'config', 'issuer')),
    whoamiRequiredAal: requiredAal(at('session', 'whoami', 'required_aal')),
    settingsRequiredAal: requiredAal(at('selfservice', 'flows', 'settings', 'required_aal')),
    password: {
      minLength: typeof minLength === 'number' && Number.isInteger(minLength) && minLength >= 6 ? minLength : 8,
      identifierSimilarity: bool(at('selfservice', 'methods', 'password', 'config', 'identifier_similarity_check_enabled'), true),
      breachedCheck: bool(at('selfservice', 'methods', 'password', 'config', 'haveibeenpwned_enabled'), true),
    },
    registrationEnabled: bool(at('selfservice', 'flows', 'registration', 'enabled'), true),
    identifierFirst: at('selfservice', 'flows', 'login', 'style') === 'identifier_first',
    recovery: flow('recovery'),
    verification: flow('verification'),
    sessionLifespanMs: durationMs(at('session', 'lifespan')),
    earliestPossibleExtendMs: durationMs(at('session', 'earliest_possible_extend')),
    sessionCookie: sessionCookieSettingsOf(config),
    allowedReturnUrls: Array.isArray(allowed) ? allowed.filter((u): u is string => typeof u === 'string') : [],
    defaultReturnUrl: text(at('selfservice', 'default_browser_return_url')),
    afterReturnUrls,
    uiUrls,
  };
}

/**
 * The console's own sign-in: Ory Network's defaults, plus what a console account may add on /settings/advanced:
 * passkeys (to sign in with, the relying party the console's own origin) and second factors (an authenticator
 * app, backup codes), which whoami and settings then require (`highest_available`, the default).
 */
const CONSOLE_SETTINGS: IdentitySettings = settingsOf({
  selfservice: {
    methods: {
      passkey: { enabled: true, config: { rp: { display_name: 'Console' } } },
      totp: { enabled: true, config: { issuer: 'Console' } },
      lookup_secret: { enabled: true },
    },
  },
});

/** The settings of tenant `nid` as its project's current revision holds them (defaults for the console's own). */
export async function identitySettings(q: Queryable, nid: string): Promise<IdentitySettings> {
  if (nid === CONSOLE_NID) return CONSOLE_SETTINGS;
  return settingsOf(await tenantIdentityConfig(q, nid));
}

/**
 * Where a browser goes after flow `kind` finished by `method` when it named no return_to (Kratos' order): the
 * method's own after URL, the flow's, the project's default, else null for the tenant's UI.
 */
export function returnUrlAfter(settings: IdentitySettings, kind: AfterFlowKind, method?: string): string | null {
  const after = settings.afterReturnUrls[kind];
  return (method ? after?.byMethod[method] : undefined) ?? after?.url ?? settings.defaultReturnUrl;
}

/**
 * Kratos' allow-list match of a return URL (x/redir SecureRedirectTo): the same scheme, the same host (or a
 * subdomain of a `*.` host), and a path under the allowed URL's path.
 */
export function isAllowedReturnUrl(url: URL, allowedUrls: readonly string[]): boolean {
  return allowedUrls.some((raw) => {
    let allowed: URL;
    try {
      allowed = new URL(raw.replace('://*.', '://wildcard-host.'));
    } catch {
      return false;
    }
    const wildcard = raw.includes('://*.');
    const allowedHost = wildcard ? allowed.host.replace(/^wildcard-host/, '') : allowed.host;
    const hostOk = wildcard ? url.host.toLowerCase().endsWith(allowedHost.toLowerCase()) : url.host.toLowerCase() === allowedHost.toLowerCase();
    return allowed.protocol === url.protocol && hostOk && (url.pathname || '/').startsWith(allowed.pathname || '/');
  });
}

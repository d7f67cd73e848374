import type { ProjectConfig, ProjectConfigSection } from '../../../shared/schemas/project-config';

/**
 * Where each field of the settings pages lives in `services.identity.config`, in Kratos' configuration
 * names (`embedx/config.schema.json`), and what it reads as when the project has not set it: the value a
 * project of Ory Network starts with. `empty` fields ('' on the page) are removed, going back to the default.
 */
export interface FieldMapping {
  path: string[];
  fallback: unknown;
  /** '' on the page removes the setting. */
  empty?: true;
  /** The config value of a page value, and back, when they differ (login `style` ↔ `identifier_first`). */
  toConfig?: (value: unknown) => unknown;
  fromConfig?: (raw: unknown) => unknown;
}

const method = (name: string): FieldMapping => ({ path: ['selfservice', 'methods', name, 'enabled'], fallback: false });
const flow = (kind: string, key: string, fallback: unknown, empty?: true): FieldMapping => ({ path: ['selfservice', 'flows', kind, key], fallback, ...(empty ? { empty } : {}) });
const passwordConfig = (key: string, fallback: unknown): FieldMapping => ({ path: ['selfservice', 'methods', 'password', 'config', key], fallback });
const after = (kind: string): FieldMapping => ({ path: ['selfservice', 'flows', kind, 'after', 'default_browser_return_url'], fallback: '', empty: true });

type Mappings = { [S in ProjectConfigSection]: { [K in keyof ProjectConfig[S]]: FieldMapping } };

export const FIELDS: Mappings = {
  authentication: {
    password_enabled: { ...method('password'), fallback: true },
    code_enabled: { ...method('code'), fallback: true },
    profile_enabled: { ...method('profile'), fallback: true },
    passkey_enabled: method('passkey'),
    webauthn_enabled: method('webauthn'),
    totp_enabled: method('totp'),
    lookup_secret_enabled: method('lookup_secret'),
    identifier_first: {
      path: ['selfservice', 'flows', 'login', 'style'],
      fallback: false,
      toConfig: (v) => (v === true ? 'identifier_first' : 'unified'),
      fromConfig: (raw) => raw === 'identifier_first',
    },
    registration_enabled: flow('registration', 'enabled', true),
    min_password_length: passwordConfig('min_password_length', 8),
    identifier_similarity_check_enabled: passwordConfig('identifier_similarity_check_enabled', true),
    haveibeenpwned_enabled: passwordConfig('haveibeenpwned_enabled', true),
  },
  passwordless: {
    code_passwordless_enabled: { path: ['selfservice', 'methods', 'code', 'passwordless_enabled'], fallback: false },
    code_lifespan: { path: ['selfservice', 'methods', 'code', 'config', 'lifespan'], fallback: '', empty: true },
    passkey_enabled: method('passkey'),
    passkey_display_name: { path: ['selfservice', 'methods', 'passkey', 'config', 'rp', 'display_name'], fallback: '', empty: true },
    webauthn_passwordless: { path: ['selfservice', 'methods', 'webauthn', 'config', 'passwordless'], fallback: false },
  },
  mfa: {
    totp_enabled: method('totp'),
    totp_issuer: { path: ['selfservice', 'methods', 'totp', 'config', 'issuer'], fallback: '', empty: true },
    lookup_secret_enabled: method('lookup_secret'),
    webauthn_enabled: method('webauthn'),
    code_mfa_enabled: { path: ['selfservice', 'methods', 'code', 'mfa_enabled'], fallback: false },
    whoami_required_aal: { path: ['session', 'whoami', 'required_aal'], fallback: 'highest_available' },
    settings_required_aal: flow('settings', 'required_aal', 'highest_available'),
  },
  recovery: {
    enabled: flow('recovery', 'enabled', true),
    use: flow('recovery', 'use', 'code'),
    lifespan: flow('recovery', 'lifespan', '', true),
    notify_unknown_recipients: flow('recovery', 'notify_unknown_recipients', false),
  },
  verification: {
    enabled: flow('verification', 'enabled', true),
    use: flow('verification', 'use', 'code'),
    lifespan: flow('verification', 'lifespan', '', true),
    notify_unknown_recipients: flow('verification', 'notify_unknown_recipients', false),
  },
  sessions: {
    lifespan: { path: ['session', 'lifespan'], fallback: '', empty: true },
    earliest_possible_extend: { path: ['session', 'earliest_possible_extend'], fallback: '', empty: true },
    cookie_name: { path: ['session', 'cookie', 'name'], fallback: '', empty: true },
    cookie_domain: { path: ['session', 'cookie', 'domain'], fallback: '', empty: true },
    cookie_same_site: { path: ['session', 'cookie', 'same_site'], fallback: 'Lax' },
    cookie_persistent: { path: ['session', 'cookie', 'persistent'], fallback: true },
    cookie_path: { path: ['session', 'cookie', 'path'], fallback: '', empty: true },
    // Kratos' schema types the flag as a string ("true"/"false") and reads it as a boolean: both are read, a string is written.
    cookie_secure: {
      path: ['session', 'cookie', 'secure'],
      fallback: '',
      empty: true,
      fromConfig: (raw) => (raw === true || raw === 'true' ? 'true' : raw === false || raw === 'false' ? 'false' : raw),
    },
    whoami_required_aal: { path: ['session', 'whoami', 'required_aal'], fallback: 'highest_available' },
  },
  browserRedirects: {
    default_browser_return_url: { path: ['selfservice', 'default_browser_return_url'], fallback: '', empty: true },
    allowed_return_urls: { path: ['selfservice', 'allowed_return_urls'], fallback: [] },
    after_login: after('login'),
    after_registration: after('registration'),
    after_settings: after('settings'),
    after_recovery: after('recovery'),
    after_verification: after('verification'),
    after_logout: after('logout'),
  },
  ui: {
    login: flow('login', 'ui_url', '', true),
    registration: flow('registration', 'ui_url', '', true),
    recovery: flow('recovery', 'ui_url', '', true),
    verification: flow('verification', 'ui_url', '', true),
    settings: flow('settings', 'ui_url', '', true),
    error: flow('error', 'ui_url', '', true),
  },
};

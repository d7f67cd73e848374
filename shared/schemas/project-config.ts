import { z } from 'zod';
import { validateOrigin } from '../domain/domain-name';
import { uuidSchema } from './common';

/*
 * The identity settings of a project (`services.identity.config`, in Kratos' configuration names), one
 * section per page of spec §2: sign-in methods, passwordless, second factors, recovery, verification,
 * sessions, browser redirects and the UI's URLs. Every setter sends only the fields it changes.
 */

const projectId = uuidSchema;
/** The revision the form was read at: a save from an older one answers CONFLICT. */
const revisionId = z.string().min(1).max(64).optional();

const DURATION_HINT = 'Write a duration such as 15m, 1h or 24h';
/** A positive Go duration (`1h`, `30m`, `1h30m`), as Kratos' config takes it. */
export const durationSchema = z
  .string()
  .trim()
  .regex(/^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/, { error: DURATION_HINT })
  .max(32, { error: DURATION_HINT })
  .refine((v) => /[1-9]/.test(v), { error: 'A duration must be longer than zero' });
/** A duration, or empty for the default. */
const durationOrDefault = z.union([durationSchema, z.literal('')]);

const URL_HINT = 'Enter a full URL starting with http:// or https://, such as https://app.example.com/login';
/**
 * An http(s) URL whose origin passes the spec §5 origin rule (http:// or https://, then the host with its
 * port and a leading `*.` stripped must pass the domain check); a path may follow.
 */
export const redirectUrlSchema = z
  .string()
  .trim()
  .max(2048, { error: 'A URL is at most 2048 characters long' })
  .superRefine((value, ctx) => {
    const match = /^(https?:\/\/[^/?#]*)([/?#].*)?$/i.exec(value);
    const problem = match ? validateOrigin(match[1]!) : URL_HINT;
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  });
const urlOrDefault = z.union([redirectUrlSchema, z.literal('')]);

export const SAME_SITE = ['Strict', 'Lax', 'None'] as const;
export const COOKIE_SECURE = ['', 'true', 'false'] as const;
export const REQUIRED_AAL = ['aal1', 'highest_available'] as const;
export const FLOW_METHODS = ['code', 'link'] as const;

export const authenticationForm = z.object({
  password_enabled: z.boolean(),
  code_enabled: z.boolean(),
  profile_enabled: z.boolean(),
  passkey_enabled: z.boolean(),
  webauthn_enabled: z.boolean(),
  totp_enabled: z.boolean(),
  lookup_secret_enabled: z.boolean(),
  identifier_first: z.boolean(),
  registration_enabled: z.boolean(),
  min_password_length: z
    .number({ error: 'Enter a number of characters' })
    .int({ error: 'Enter a whole number of characters' })
    .min(6, { error: 'A password must be at least 6 characters long' })
    .max(72, { error: 'A password cannot be required to be longer than 72 characters' }),
  identifier_similarity_check_enabled: z.boolean(),
  haveibeenpwned_enabled: z.boolean(),
});

export const passwordlessForm = z.object({
  code_passwordless_enabled: z.boolean(),
  /** How long a one-time code works (`selfservice.methods.code.config.lifespan`), '' for Ory's default. */
  code_lifespan: durationOrDefault,
  passkey_enabled: z.boolean(),
  passkey_display_name: z.string().trim().max(100, { error: 'The display name is at most 100 characters long' }),
  webauthn_passwordless: z.boolean(),
});

export const mfaForm = z.object({
  totp_enabled: z.boolean(),
  totp_issuer: z.string().trim().max(100, { error: 'The issuer is at most 100 characters long' }),
  lookup_secret_enabled: z.boolean(),
  webauthn_enabled: z.boolean(),
  code_mfa_enabled: z.boolean(),
  whoami_required_aal: z.enum(REQUIRED_AAL, { error: 'Choose aal1 or highest_available' }),
  settings_required_aal: z.enum(REQUIRED_AAL, { error: 'Choose aal1 or highest_available' }),
});

const flowForm = z.object({
  enabled: z.boolean(),
  use: z.enum(FLOW_METHODS, { error: 'Choose code or link' }),
  lifespan: durationOrDefault,
  notify_unknown_recipients: z.boolean(),
});
export const recoveryForm = flowForm;
export const verificationForm = flowForm;

export const sessionsForm = z.object({
  lifespan: durationOrDefault,
  earliest_possible_extend: durationOrDefault,
  cookie_name: z.union([
    z.string().trim().regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'A cookie name has 1 to 64 letters, digits, hyphens or underscores' }),
    z.literal(''),
  ]),
  cookie_domain: z.union([
    z.string().trim().regex(/^\.?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+$/, { error: 'Enter a domain such as example.com' }).max(253),
    z.literal(''),
  ]),
  cookie_same_site: z.enum(SAME_SITE, { error: 'Choose Strict, Lax or None' }),
  cookie_persistent: z.boolean(),
  cookie_path: z.union([
    z.string().trim().max(256, { error: 'A cookie path has at most 256 characters' }).regex(/^\/[!-:<-~]*$/, { error: 'A cookie path starts with / and has no spaces or semicolons' }),
    z.literal(''),
  ]),
  /** `session.cookie.secure`: '' sends the cookie over HTTPS only when the API is served over HTTPS. */
  cookie_secure: z.enum(COOKIE_SECURE, { error: 'Choose automatic, always or never' }),
  whoami_required_aal: z.enum(REQUIRED_AAL, { error: 'Choose aal1 or highest_available' }),
});

export const AFTER_FLOWS = ['login', 'registration', 'settings', 'recovery', 'verification', 'logout'] as const;
export const browserRedirectsForm = z.object({
  default_browser_return_url: urlOrDefault,
  allowed_return_urls: z.array(redirectUrlSchema).max(100, { error: 'List at most 100 return URLs' }),
  after_login: urlOrDefault,
  after_registration: urlOrDefault,
  after_settings: urlOrDefault,
  after_recovery: urlOrDefault,
  after_verification: urlOrDefault,
  after_logout: urlOrDefault,
});

export const UI_FLOWS = ['login', 'registration', 'recovery', 'verification', 'settings', 'error'] as const;
export const uiForm = z.object({
  login: urlOrDefault,
  registration: urlOrDefault,
  recovery: urlOrDefault,
  verification: urlOrDefault,
  settings: urlOrDefault,
  error: urlOrDefault,
});

export const projectConfigInput = z.object({ projectId });
export const projectConfigOutput = z.object({
  revisionId: z.string(),
  authentication: authenticationForm,
  passwordless: passwordlessForm,
  mfa: mfaForm,
  recovery: recoveryForm,
  verification: verificationForm,
  sessions: sessionsForm,
  browserRedirects: browserRedirectsForm,
  ui: uiForm,
});
export type ProjectConfig = z.infer<typeof projectConfigOutput>;
export type ProjectConfigSection = Exclude<keyof ProjectConfig, 'revisionId'>;

const setter = <T extends z.ZodRawShape>(form: z.ZodObject<T>) => form.partial().extend({ projectId, revisionId });
export const setAuthenticationInput = setter(authenticationForm);
export const setPasswordlessInput = setter(passwordlessForm);
export const setMfaInput = setter(mfaForm);
export const setRecoveryInput = setter(recoveryForm);
export const setVerificationInput = setter(verificationForm);
export const setSessionsInput = setter(sessionsForm);
export const setBrowserRedirectsInput = setter(browserRedirectsForm);
export const setUiInput = setter(uiForm);

/** `/authentication/sessions`: how long a sign-in lasts. */
export const sessionLifespanForm = sessionsForm.pick({ lifespan: true, earliest_possible_extend: true, whoami_required_aal: true });
/** `/session-settings`: the session cookie. */
export const sessionCookieForm = sessionsForm.pick({ cookie_name: true, cookie_domain: true, cookie_same_site: true, cookie_persistent: true, cookie_path: true, cookie_secure: true });

/** `/browser-redirects` as the page edits it: the allowed return URLs one a line. */
export const browserRedirectsPageForm = browserRedirectsForm.extend({
  allowed_return_urls: z
    .string()
    .max(20_000)
    .superRefine((text, ctx) => {
      const lines = returnUrlLines(text);
      if (lines.length > 100) ctx.addIssue({ code: 'custom', message: 'List at most 100 return URLs' });
      for (const line of lines) {
        const parsed = redirectUrlSchema.safeParse(line);
        if (!parsed.success) {
          ctx.addIssue({ code: 'custom', message: `${line}: ${parsed.error.issues[0]?.message ?? URL_HINT}` });
          return;
        }
      }
    }),
});

/** The allowed return URLs of the page's text: one a line, blank lines dropped. */
export const returnUrlLines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

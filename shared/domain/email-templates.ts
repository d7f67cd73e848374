/**
 * The identity service's email templates (Ory's `courier.templates`): which exist, which variables each one
 * is rendered with, their project defaults, and a renderer for the subset of Go templates they use
 * (`{{ .Variable }}`, `{{ .Identity.traits.email }}`, `{{- … -}}`).
 */

/** Template names as Ory's project config spells them (`courier.templates.<name>.<variant>.email`). */
export const TEMPLATE_NAMES = ['recovery_code', 'recovery', 'verification_code', 'verification', 'login_code', 'registration_code'] as const;
export type TemplateName = (typeof TEMPLATE_NAMES)[number];
export const TEMPLATE_VARIANTS = ['valid', 'invalid'] as const;
export type TemplateVariant = (typeof TEMPLATE_VARIANTS)[number];

/** The identity service's test-event kinds (spec §3): a template and variant each, `stub` its own. */
export const TEST_EVENT_KINDS = [
  'recovery_invalid',
  'recovery_valid',
  'recovery_code_invalid',
  'recovery_code_valid',
  'verification_invalid',
  'verification_valid',
  'verification_code_invalid',
  'verification_code_valid',
  'stub',
  'login_code_valid',
  'registration_code_valid',
] as const;
export type TestEventKind = (typeof TEST_EVENT_KINDS)[number];

export interface EmailTemplate {
  subject: string;
  body: { html: string; plaintext: string };
}

export interface TemplateVariable {
  name: string;
  description: string;
}

const V = {
  To: { name: 'To', description: 'The recipient’s address' },
  Identity: { name: 'Identity', description: 'The identity: .Identity.id, .Identity.traits.email, …' },
  RequestURL: { name: 'RequestURL', description: 'The URL of the flow that sent the message' },
  TransientPayload: { name: 'TransientPayload', description: 'The flow’s transient payload' },
  ExpiresInMinutes: { name: 'ExpiresInMinutes', description: 'Minutes until the code or link expires' },
  RecoveryCode: { name: 'RecoveryCode', description: 'The recovery code' },
  RecoveryURL: { name: 'RecoveryURL', description: 'The recovery link' },
  VerificationCode: { name: 'VerificationCode', description: 'The verification code' },
  VerificationURL: { name: 'VerificationURL', description: 'The verification link' },
  LoginCode: { name: 'LoginCode', description: 'The one-time sign-in code' },
  RegistrationCode: { name: 'RegistrationCode', description: 'The one-time sign-up code' },
  Traits: { name: 'Traits', description: 'The traits being registered: .Traits.email, …' },
} satisfies Record<string, TemplateVariable>;

const INVALID = [V.To, V.RequestURL, V.TransientPayload];

interface Definition {
  label: string;
  variants: Partial<Record<TemplateVariant, { variables: TemplateVariable[]; template: EmailTemplate }>>;
}

const html = (title: string, ...paragraphs: string[]) =>
  `<!doctype html>\n<html>\n<body style="font-family: sans-serif; line-height: 1.5">\n<h1 style="font-size: 20px">${title}</h1>\n${paragraphs
    .map((p) => `<p>${p}</p>`)
    .join('\n')}\n</body>\n</html>\n`;

const unknownAccount = (what: string): EmailTemplate => ({
  subject: `Account access attempted`,
  body: {
    html: html(
      'Account access attempted',
      `Hi,`,
      `you (or someone else) entered this email address when trying to ${what}. However, this email address is not on our database of registered users and therefore the attempt has failed.`,
      `If this was you, check if you signed up using a different address.`,
      `If this was not you, please ignore this email.`,
    ),
    plaintext: `Hi,\n\nyou (or someone else) entered this email address when trying to ${what}. However, this email address is not on our database of registered users and therefore the attempt has failed.\n\nIf this was you, check if you signed up using a different address.\n\nIf this was not you, please ignore this email.\n`,
  },
});

export const TEMPLATES: Record<TemplateName, Definition> = {
  recovery_code: {
    label: 'Recovery code',
    variants: {
      valid: {
        variables: [V.To, V.RecoveryCode, V.Identity, V.ExpiresInMinutes, V.RequestURL, V.TransientPayload],
        template: {
          subject: 'Recover access to your account',
          body: {
            html: html('Recover access to your account', 'Hi,', 'please recover access to your account by entering the following code:', '<strong style="font-size: 24px; letter-spacing: 4px">{{ .RecoveryCode }}</strong>', 'The code expires in {{ .ExpiresInMinutes }} minutes. If you did not ask for it, ignore this email.'),
            plaintext: 'Hi,\n\nplease recover access to your account by entering the following code:\n\n{{ .RecoveryCode }}\n',
          },
        },
      },
      invalid: { variables: INVALID, template: unknownAccount('recover access to an account') },
    },
  },
  recovery: {
    label: 'Recovery link',
    variants: {
      valid: {
        variables: [V.To, V.RecoveryURL, V.Identity, V.ExpiresInMinutes, V.RequestURL, V.TransientPayload],
        template: {
          subject: 'Recover access to your account',
          body: {
            html: html('Recover access to your account', 'Hi,', 'please recover access to your account by clicking the following link:', '<a href="{{ .RecoveryURL }}">{{ .RecoveryURL }}</a>'),
            plaintext: 'Hi,\n\nplease recover access to your account by clicking the following link:\n\n{{ .RecoveryURL }}\n',
          },
        },
      },
      invalid: { variables: INVALID, template: unknownAccount('recover access to an account') },
    },
  },
  verification_code: {
    label: 'Verification code',
    variants: {
      valid: {
        variables: [V.To, V.VerificationCode, V.VerificationURL, V.Identity, V.ExpiresInMinutes, V.RequestURL, V.TransientPayload],
        template: {
          subject: 'Please verify your email address',
          body: {
            html: html('Please verify your email address', 'Hi,', 'please verify your account by entering the following code:', '<strong style="font-size: 24px; letter-spacing: 4px">{{ .VerificationCode }}</strong>', 'or clicking the following link:', '<a href="{{ .VerificationURL }}">{{ .VerificationURL }}</a>'),
            plaintext: 'Hi,\n\nplease verify your account by entering the following code:\n\n{{ .VerificationCode }}\n',
          },
        },
      },
      invalid: { variables: INVALID, template: unknownAccount('verify an email address') },
    },
  },
  verification: {
    label: 'Verification link',
    variants: {
      valid: {
        variables: [V.To, V.VerificationURL, V.Identity, V.ExpiresInMinutes, V.RequestURL, V.TransientPayload],
        template: {
          subject: 'Please verify your email address',
          body: {
            html: html('Please verify your email address', 'Hi,', 'please verify your account by clicking the following link:', '<a href="{{ .VerificationURL }}">{{ .VerificationURL }}</a>'),
            plaintext: 'Hi,\n\nplease verify your account by clicking the following link:\n\n{{ .VerificationURL }}\n',
          },
        },
      },
      invalid: { variables: INVALID, template: unknownAccount('verify an email address') },
    },
  },
  login_code: {
    label: 'Sign-in code',
    variants: {
      valid: {
        variables: [V.To, V.LoginCode, V.Identity, V.ExpiresInMinutes, V.RequestURL, V.TransientPayload],
        template: {
          subject: 'Login to your account',
          body: {
            html: html('Login to your account', 'Hi,', 'please enter the following code to sign in:', '<strong style="font-size: 24px; letter-spacing: 4px">{{ .LoginCode }}</strong>'),
            plaintext: 'Hi,\n\nplease enter the following code to sign in:\n\n{{ .LoginCode }}\n',
          },
        },
      },
    },
  },
  registration_code: {
    label: 'Sign-up code',
    variants: {
      valid: {
        variables: [V.To, V.RegistrationCode, V.Traits, V.ExpiresInMinutes, V.RequestURL, V.TransientPayload],
        template: {
          subject: 'Complete your account registration',
          body: {
            html: html('Complete your account registration', 'Hi,', 'please enter the following code to complete your registration:', '<strong style="font-size: 24px; letter-spacing: 4px">{{ .RegistrationCode }}</strong>'),
            plaintext: 'Hi,\n\nplease enter the following code to complete your registration:\n\n{{ .RegistrationCode }}\n',
          },
        },
      },
    },
  },
};

/** The stub template of test events. */
export const STUB_TEMPLATE: EmailTemplate = { subject: 'Test message for {{ .To }}', body: { html: html('Test message', 'This is a test message to {{ .To }}.'), plaintext: 'This is a test message to {{ .To }}.\n' } };

/** Every template and variant that exists, in catalogue order. */
export function templateVariants(): { template: TemplateName; variant: TemplateVariant; label: string }[] {
  return TEMPLATE_NAMES.flatMap((template) =>
    TEMPLATE_VARIANTS.filter((variant) => TEMPLATES[template].variants[variant]).map((variant) => ({ template, variant, label: TEMPLATES[template].label })),
  );
}

export function isTemplate(template: string, variant: string): boolean {
  return (TEMPLATE_NAMES as readonly string[]).includes(template) && TEMPLATES[template as TemplateName].variants[variant as TemplateVariant] !== undefined;
}

/** Why a template/variant pair does not exist, or null when it does. */
export function unknownTemplateReason(template: string, variant: string): string | null {
  if (!(TEMPLATE_NAMES as readonly string[]).includes(template)) return `There is no email template "${template}"; use one of ${TEMPLATE_NAMES.join(', ')}.`;
  if (!(TEMPLATE_VARIANTS as readonly string[]).includes(variant)) return `There is no variant "${variant}"; use valid or invalid.`;
  if (!isTemplate(template, variant)) return `The template "${template}" has no ${variant} variant; use valid.`;
  return null;
}

export function defaultTemplate(template: TemplateName, variant: TemplateVariant): EmailTemplate {
  const found = TEMPLATES[template].variants[variant];
  if (!found) throw new Error(unknownTemplateReason(template, variant) ?? 'unknown template');
  return found.template;
}

export function templateVariables(template: TemplateName, variant: TemplateVariant): TemplateVariable[] {
  return TEMPLATES[template].variants[variant]?.variables ?? [];
}

/** The template and variant a test event renders (`stub` renders the stub template). */
export function templateOfEvent(kind: TestEventKind): { template: TemplateName; variant: TemplateVariant } | null {
  if (kind === 'stub') return null;
  const variant: TemplateVariant = kind.endsWith('_invalid') ? 'invalid' : 'valid';
  return { template: kind.slice(0, kind.lastIndexOf('_')) as TemplateName, variant };
}

/** What a variant means to the reader: the address has an account ("known") or has none ("unknown"). */
export const VARIANT_LABELS: Record<TemplateVariant, string> = { valid: 'known address', invalid: 'unknown address' };

/** A template and variant as the console names them, e.g. "Recovery code (known address)". */
export function templateLabel(template: TemplateName, variant: TemplateVariant): string {
  return `${TEMPLATES[template].label} (${VARIANT_LABELS[variant]})`;
}

/**
 * A message's template type (Ory's `template_type`, e.g. `recovery_code_valid`) as the console names it:
 * "Recovery code (known address)", "Test message"; a type the console does not know reads as words, never as an id.
 */
export function messageTemplateLabel(templateType: string): string {
  if (templateType === 'stub') return 'Test message';
  const variant = templateType.endsWith('_invalid') ? 'invalid' : templateType.endsWith('_valid') ? 'valid' : null;
  const template = variant ? templateType.slice(0, templateType.lastIndexOf('_')) : templateType;
  if (variant && (TEMPLATE_NAMES as readonly string[]).includes(template)) return templateLabel(template as TemplateName, variant);
  const words = templateType.replace(/[_-]+/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Unknown template';
}

/** Sample values for every variable, as a preview or a test send renders them. */
export function sampleData(to: string): Record<string, unknown> {
  return {
    To: to,
    RecoveryCode: '123456',
    VerificationCode: '123456',
    LoginCode: '123456',
    RegistrationCode: '123456',
    RecoveryURL: 'https://example.com/self-service/recovery?flow=sample&token=sample',
    VerificationURL: 'https://example.com/self-service/verification?flow=sample&code=123456',
    RequestURL: 'https://example.com/self-service/recovery/browser',
    ExpiresInMinutes: 15,
    TransientPayload: {},
    Identity: { id: '00000000-0000-4000-8000-000000000000', traits: { email: to, name: { first: 'Ada', last: 'Lovelace' } } },
    Traits: { email: to },
  };
}

export class TemplateError extends Error {}

const ACTION = /\{\{(-?)\s*([\s\S]*?)\s*(-?)\}\}/g;
const PATH = /^\.[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)*$/;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' })[c] ?? c);

function lookup(data: Record<string, unknown>, path: string, allowed: readonly string[] | null): string {
  const [top, ...rest] = path.slice(1).split('.');
  if (!top || (allowed && !allowed.includes(top))) throw new TemplateError(`{{ ${path} }} is not a variable of this template${allowed ? `; use ${allowed.map((a) => `.${a}`).join(', ')}` : ''}.`);
  let at: unknown = data[top];
  for (const key of rest) at = typeof at === 'object' && at !== null && !Array.isArray(at) ? (at as Record<string, unknown>)[key] : undefined;
  if (at === undefined || at === null) return rest.length > 0 ? '<no value>' : '';
  return typeof at === 'object' ? JSON.stringify(at) : String(at);
}

/**
 * Renders a template with `data`: each `{{ .Path }}` becomes its value (HTML-escaped in HTML), `{{-`/`-}}` trim
 * the white space beside them. Anything else (`{{ if }}`, `{{ range }}`, an unclosed `{{`, a variable the
 * template does not have) throws TemplateError saying what to fix: the caller falls back to the default.
 */
export function renderTemplate(source: string, data: Record<string, unknown>, opts: { html?: boolean; variables?: readonly string[] } = {}): string {
  let out = '';
  let last = 0;
  ACTION.lastIndex = 0;
  for (let m = ACTION.exec(source); m; m = ACTION.exec(source)) {
    let text = source.slice(last, m.index);
    if (m[1]) text = text.replace(/\s+$/, '');
    out += text;
    const expr = m[2] ?? '';
    if (!PATH.test(expr)) throw new TemplateError(`{{ ${expr} }} is not supported; write a variable such as {{ .To }}.`);
    const value = lookup(data, expr, opts.variables ?? null);
    out += opts.html ? escapeHtml(value) : value;
    last = m.index + m[0].length;
    if (m[3]) {
      const trimmed = source.slice(last).match(/^\s*/)?.[0].length ?? 0;
      last += trimmed;
    }
  }
  const tail = source.slice(last);
  if (tail.includes('{{') || tail.includes('}}') || out.includes('{{')) throw new TemplateError('A “{{” is not closed by “}}”.');
  return out + tail;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  plaintext: string;
}

/** Renders all three parts, or throws TemplateError naming the part that is broken. */
export function renderEmail(template: EmailTemplate, data: Record<string, unknown>, variables?: readonly string[]): RenderedEmail {
  const part = (name: string, source: string, html: boolean) => {
    try {
      return renderTemplate(source, data, { html, ...(variables ? { variables } : {}) });
    } catch (err) {
      throw new TemplateError(`${name}: ${(err as Error).message}`);
    }
  };
  return {
    subject: part('Subject', template.subject, false).replace(/[\r\n]+/g, ' ').trim(),
    html: part('HTML body', template.body.html, true),
    plaintext: part('Plain-text body', template.body.plaintext, false),
  };
}

/** Ory's project config keeps template texts as `base64://…` URLs. */
export function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return `base64://${btoa(binary)}`;
}

/** The text of a `base64://…` value (a plain string is taken as it is); null when it cannot be decoded. */
export function fromBase64Url(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  if (!value.startsWith('base64://')) return value;
  try {
    const binary = atob(value.slice('base64://'.length));
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** A custom template from the project config's `courier.templates.<name>.<variant>.email`, or null when none is complete. */
export function customTemplateOf(templates: unknown, template: TemplateName, variant: TemplateVariant): EmailTemplate | null {
  const at = (o: unknown, k: string): unknown => (typeof o === 'object' && o !== null && !Array.isArray(o) ? (o as Record<string, unknown>)[k] : undefined);
  const email = at(at(at(templates, template), variant), 'email');
  if (email === undefined) return null;
  const subject = fromBase64Url(at(email, 'subject'));
  const htmlBody = fromBase64Url(at(at(email, 'body'), 'html'));
  const plaintext = fromBase64Url(at(at(email, 'body'), 'plaintext'));
  if (subject === null && htmlBody === null && plaintext === null) return null;
  const fallback = TEMPLATES[template].variants[variant]?.template;
  if (!fallback) return null;
  return { subject: subject ?? fallback.subject, body: { html: htmlBody ?? fallback.body.html, plaintext: plaintext ?? fallback.body.plaintext } };
}

/**
 * The courier config with the project's own version of a template (`courier.templates.<name>.<variant>.email`,
 * texts as `base64://…`), or without it when `email` is null (back to the default). Other templates, the
 * template's SMS part and every other field survive.
 */
export function applyTemplate(courier: unknown, template: TemplateName, variant: TemplateVariant, email: EmailTemplate | null): Record<string, unknown> {
  const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
  const c = obj(courier);
  const templates = { ...obj(c.templates) };
  const byName = { ...obj(templates[template]) };
  const byVariant = { ...obj(byName[variant]) };
  if (email) {
    byVariant.email = {
      ...obj(byVariant.email),
      subject: toBase64Url(email.subject),
      body: { ...obj(obj(byVariant.email).body), html: toBase64Url(email.body.html), plaintext: toBase64Url(email.body.plaintext) },
    };
  } else delete byVariant.email;
  if (Object.keys(byVariant).length > 0) byName[variant] = byVariant;
  else delete byName[variant];
  if (Object.keys(byName).length > 0) templates[template] = byName;
  else delete templates[template];
  const next: Record<string, unknown> = { ...c, templates };
  if (Object.keys(templates).length === 0) delete next.templates;
  return next;
}

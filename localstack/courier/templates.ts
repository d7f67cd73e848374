import {
  customTemplateOf,
  defaultTemplate,
  renderEmail,
  templateVariables,
  type RenderedEmail,
  type TemplateName,
  type TemplateVariant,
} from '../../shared/domain/email-templates';
import { requestUrlDomain, smsText } from '../../shared/domain/sms-templates';
import type { Queryable } from '../db/types';
import { sendMail } from './service';
import type { IdentityDeps } from '../kernel/identity-deps';
import { configAt, tenantIdentityConfig, type JsonObject } from '../kernel/tenant-config';

/**
 * The email of `template`/`variant` for a tenant: its custom template from `courier.templates` when it has one
 * that renders, else the project default. A broken custom template never breaks the flow that sends it:
 * `onBroken` hears why, and the default is sent.
 */
export function composeEmail(
  config: JsonObject,
  template: TemplateName,
  variant: TemplateVariant,
  data: Record<string, unknown>,
  onBroken: (reason: string) => void = () => undefined,
): RenderedEmail {
  const variables = templateVariables(template, variant).map((v) => v.name);
  const custom = customTemplateOf(configAt(config, 'courier', 'templates'), template, variant);
  if (custom) {
    try {
      return renderEmail(custom, data, variables);
    } catch (err) {
      onBroken((err as Error).message);
    }
  }
  return renderEmail(defaultTemplate(template, variant), data, variables);
}

/** Renders the tenant's template with `data` and queues it (email, or SMS with the plain-text body). */
export async function sendTemplated(
  deps: Pick<IdentityDeps, 'ctx'>,
  q: Queryable,
  nid: string,
  args: { to: string; template: TemplateName; variant: TemplateVariant; data: Record<string, unknown>; type?: 'email' | 'sms' },
): Promise<string> {
  const config = await tenantIdentityConfig(q, nid);
  const mail = composeEmail(config, args.template, args.variant, { To: args.to, ...args.data }, (reason) =>
    deps.ctx.log.warn({ nid, template: args.template, variant: args.variant }, `custom email template is broken, sending the default: ${reason}`),
  );
  // Only the template's own variables, as the template model Kratos marshals has only its own fields.
  const own = new Set(templateVariables(args.template, args.variant).map((v) => v.name.split('.')[0]));
  const data = Object.fromEntries(Object.entries({ To: args.to, ...args.data }).filter(([k]) => own.has(k)));
  // A text message takes Kratos' SMS text of the template (its SMS models also carry the request URL's host).
  const sms = args.type === 'sms' ? smsText(args.template, args.variant, { To: args.to, ...args.data }) : null;
  if (sms !== null && 'RequestURL' in data) data.RequestURLDomain = requestUrlDomain(data.RequestURL);
  return sendMail(deps, q, nid, {
    to: args.to,
    subject: args.type === 'sms' ? '' : mail.subject,
    body: sms ?? mail.plaintext,
    html: mail.html,
    templateData: kratosTemplateData(data),
    template: `${args.template}_${args.variant}`,
    type: args.type ?? 'email',
  });
}

/** `RequestURLDomain` → `request_url_domain`: a template variable's name in Kratos' JSON of the template data. */
export const snakeCase = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

/** The template data as Kratos marshals its template models (`{ to, recovery_code, identity, … }`). */
export function kratosTemplateData(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [snakeCase(k), v]));
}

/**
 * Kratos' `selfservice.flows.<recovery|verification>.notify_unknown_recipients`: when on, an address with no
 * account is told so (the template's invalid variant) instead of hearing nothing. Off by default.
 */
export async function notifyUnknownRecipient(
  deps: Pick<IdentityDeps, 'ctx'>,
  q: Queryable,
  nid: string,
  flow: 'recovery' | 'verification',
  to: string,
  requestUrl: string,
): Promise<void> {
  const config = await tenantIdentityConfig(q, nid);
  if (configAt(config, 'selfservice', 'flows', flow, 'notify_unknown_recipients') !== true) return;
  await sendTemplated(deps, q, nid, {
    to,
    template: flow === 'recovery' ? 'recovery_code' : 'verification_code',
    variant: 'invalid',
    data: { RequestURL: requestUrl, TransientPayload: {} },
  });
}

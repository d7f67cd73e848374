import {
  customTemplateOf,
  defaultTemplate,
  renderEmail,
  templateVariables,
  type RenderedEmail,
  type TemplateName,
  type TemplateVariant,
} from '../../../shared/domain/email-templates';
import type { Queryable } from '../db/types';
import { sendMail } from './courier';
import type { IdentityDeps } from './deps';
import { configAt, tenantIdentityConfig, type JsonObject } from './tenant-config';

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
  return sendMail(deps, q, nid, {
    to: args.to,
    subject: args.type === 'sms' ? '' : mail.subject,
    body: mail.plaintext,
    template: `${args.template}_${args.variant}`,
    type: args.type ?? 'email',
  });
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

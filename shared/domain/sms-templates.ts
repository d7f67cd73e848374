/*
 * The identity service's built-in text messages (Kratos' `sms.body.gotmpl` of `courier/template/courier/builtin/templates`):
 * the code templates that have an SMS part, with Kratos' own words. Each ends with the WebOTP line
 * (`@domain #code`) when the flow's request URL has a host, so a phone can offer the code by itself.
 */
import type { TemplateName, TemplateVariant } from './email-templates';

type Data = Record<string, unknown>;

const text = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** `RequestURLDomain` of Kratos' SMS models: the host of the flow's request URL ('' when it has none). */
export function requestUrlDomain(requestUrl: unknown): string {
  try {
    return new URL(text(requestUrl)).hostname;
  } catch {
    return '';
  }
}

const webOtp = (d: Data, code: string) => {
  const domain = requestUrlDomain(d.RequestURL);
  return domain ? `\n@${domain} #${code}\n` : '';
};

const SMS_TEXTS: Partial<Record<`${TemplateName}_${TemplateVariant}`, (d: Data) => string>> = {
  login_code_valid: (d) => `Your login code is: ${text(d.LoginCode)}\n\nIt expires in ${text(d.ExpiresInMinutes)} minutes.\n${webOtp(d, text(d.LoginCode))}`,
  registration_code_valid: (d) =>
    `Your registration code is: ${text(d.RegistrationCode)}\n\nIt expires in ${text(d.ExpiresInMinutes)} minutes.\n${webOtp(d, text(d.RegistrationCode))}`,
  verification_code_valid: (d) =>
    `Your verification code is: ${text(d.VerificationCode)}\n\nIf this was not you, do nothing. It expires in ${text(d.ExpiresInMinutes)} minutes.\n${webOtp(d, text(d.VerificationCode))}`,
  recovery_code_valid: (d) => `Your recovery code is: ${text(d.RecoveryCode)}\n\n@${requestUrlDomain(d.RequestURL)} #${text(d.RecoveryCode)}\n`,
};

/** The text message of `template`/`variant` rendered with `data`, or null when Kratos has no SMS text for it. */
export function smsText(template: TemplateName, variant: TemplateVariant, data: Data): string | null {
  const render = SMS_TEXTS[`${template}_${variant}`];
  return render ? render(data) : null;
}

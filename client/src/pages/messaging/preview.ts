import { renderEmail, sampleData, TemplateError, type RenderedEmail } from '../../../../shared/domain/email-templates';

/** The template rendered with sample values, or the reason it does not render (what the save would refuse). */
export function previewOf(
  email: { subject: string; html: string; plaintext: string },
  variables: readonly string[],
): { ok: true; rendered: RenderedEmail } | { ok: false; reason: string } {
  try {
    return { ok: true, rendered: renderEmail({ subject: email.subject, body: { html: email.html, plaintext: email.plaintext } }, sampleData('ada@example.com'), variables) };
  } catch (err) {
    if (err instanceof TemplateError) return { ok: false, reason: err.message };
    throw err;
  }
}

export const STATUS_LABELS = { queued: 'Queued', processing: 'Processing', sent: 'Sent', abandoned: 'Abandoned' } as const;
export const STATUS_BADGE = { queued: 'badge-stage', processing: 'badge-dev', sent: 'badge-prod', abandoned: 'badge-abandoned' } as const;

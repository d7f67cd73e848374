import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  sampleData,
  STUB_TEMPLATE,
  TEST_EVENT_KINDS,
  defaultTemplate,
  renderEmail,
  templateOfEvent,
  unknownTemplateReason,
  type TemplateName,
  type TemplateVariant,
} from '../../shared/domain/email-templates';
import type { LocalStackContext } from '../kernel/context';
import { sendMail } from './service';
import { sendTemplated } from './templates';
import { messageView } from './views';
import { findMessage } from './store';
import { route } from '../kernel/route';
import { notFound } from '../kernel/errors';

/** `{project_id}`: a UUID (compared lower-case), as project/bodies.ts reads it. */
const projectIdParams = z.object({ project_id: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()) });

const templateParams = z.object({ template: z.string().max(64), variant: z.string().max(64) });

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ()-]{4,19}$/;

export const testMessageBody = z
  .object({
    kind: z.enum(TEST_EVENT_KINDS, { error: `kind must be one of ${TEST_EVENT_KINDS.join(', ')}` }),
    recipient: z.string().trim().min(1, { error: 'recipient is required' }).max(320, { error: 'recipient is too long' }),
    channel: z.enum(['email', 'sms'], { error: 'channel must be email or sms' }).default('email'),
  })
  .superRefine((body, ctx) => {
    if (body.channel === 'email' && !EMAIL.test(body.recipient)) ctx.addIssue({ code: 'custom', path: ['recipient'], message: 'recipient must be an email address for the email channel' });
    if (body.channel === 'sms' && !PHONE.test(body.recipient)) ctx.addIssue({ code: 'custom', path: ['recipient'], message: 'recipient must be a phone number (+4915112345678) for the sms channel' });
  });

/**
 * The project defaults of the identity service's email templates (spec §7 `.well-known`, Ory's orphan
 * `emailTemplateData`), and a test send: one message of a test-event kind, rendered with the project's own
 * template and sample data, queued on the project's courier like any other.
 */
export function registerCourierRoutes(scope: FastifyInstance, ctx: LocalStackContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/.well-known/project-defaults/email-templates/:template/:variant',
    params: templateParams,
    auth: 'public',
    handler: async ({ params }) => {
      const reason = unknownTemplateReason(params.template, params.variant);
      if (reason) throw notFound(reason);
      return defaultTemplate(params.template as TemplateName, params.variant as TemplateVariant);
    },
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project_id/courier/test-messages',
    params: projectIdParams,
    body: testMessageBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 201,
    handler: async ({ q, project, body }) => {
      const to = body.channel === 'email' ? body.recipient.toLowerCase() : body.recipient.replace(/[\s()-]/g, '');
      const event = templateOfEvent(body.kind);
      let id: string;
      if (event) {
        id = await sendTemplated({ ctx }, q, project.id, { to, template: event.template, variant: event.variant, data: sampleData(to), type: body.channel });
      } else {
        const stub = renderEmail(STUB_TEMPLATE, { To: to });
        id = await sendMail({ ctx }, q, project.id, { to, subject: body.channel === 'sms' ? '' : stub.subject, body: stub.plaintext, template: 'stub', type: body.channel });
      }
      return messageView((await findMessage(q, project.id, id))!);
    },
  });
}

import type { Message as OryMessage, MessageDispatch as OryMessageDispatch } from '@ory/client';
import { z } from 'zod';
import { TEMPLATE_NAMES, TEMPLATE_VARIANTS, TEST_EVENT_KINDS } from '../domain/email-templates';
import { uuidSchema } from './common';
import { conformsTo } from './wire';

const projectId = uuidSchema;

/** Courier message status (spec §3). */
export const courierMessageStatusSchema = z.enum(['queued', 'sent', 'processing', 'abandoned'], {
  error: 'Status must be queued, sent, processing or abandoned',
});
export type CourierMessageStatus = z.infer<typeof courierMessageStatusSchema>;
/** Notification channel (spec §3). */
export const notificationChannelSchema = z.enum(['email', 'sms'], { error: 'Channel must be email or sms' });
export const templateNameSchema = z.enum(TEMPLATE_NAMES, { error: `Template must be one of ${TEMPLATE_NAMES.join(', ')}` });
export const templateVariantSchema = z.enum(TEMPLATE_VARIANTS, { error: 'Variant must be valid or invalid' });
export const testEventKindSchema = z.enum(TEST_EVENT_KINDS, { error: 'Choose a kind of test message' });

// ---- templates ----

export const templateRefInput = z.object({ projectId, template: templateNameSchema, variant: templateVariantSchema });
const templateText = (what: string, max: number) => z.string().max(max, { error: `${what} is at most ${max} characters` });
export const setTemplateInput = templateRefInput.extend({
  subject: templateText('The subject', 998).trim().min(1, { error: 'Write a subject' }),
  html: templateText('The HTML body', 100_000).min(1, { error: 'Write an HTML body' }),
  plaintext: templateText('The plain-text body', 100_000).min(1, { error: 'Write a plain-text body' }),
});
export type SetTemplateInput = z.infer<typeof setTemplateInput>;

export const emailTemplateDataSchema = z.object({
  subject: z.string(),
  body: z.object({ html: z.string(), plaintext: z.string() }),
});
export type EmailTemplateData = z.infer<typeof emailTemplateDataSchema>;

export const templateVariableSchema = z.object({ name: z.string(), description: z.string() });

export const templateOutput = z.object({
  template: templateNameSchema,
  variant: templateVariantSchema,
  label: z.string(),
  /** Whether the project has its own version (else the default is used). */
  custom: z.boolean(),
  subject: z.string(),
  html: z.string(),
  plaintext: z.string(),
  variables: z.array(templateVariableSchema),
  /** The project default, for comparison and reset. */
  default: emailTemplateDataSchema,
});
export type TemplateOutput = z.infer<typeof templateOutput>;

export const templatesOutput = z.array(
  z.object({ template: templateNameSchema, variant: templateVariantSchema, label: z.string(), custom: z.boolean() }),
);

// ---- messages ----

export const messagesInput = z.object({
  projectId,
  status: courierMessageStatusSchema.optional(),
  recipient: z.string().trim().max(320, { error: 'Recipient is at most 320 characters' }).optional(),
  pageToken: z.string().max(1024, { error: 'Page token is too long' }).optional(),
});
export const messageRefInput = z.object({ projectId, id: uuidSchema });

export const messageDispatchSchema = conformsTo<OryMessageDispatch>()(
  z.looseObject({
    id: z.string(),
    message_id: z.string(),
    status: z.enum(['failed', 'success']),
    error: z.record(z.string(), z.unknown()).optional(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);

export type CourierDispatch = z.infer<typeof messageDispatchSchema>;

export const messageSchema = conformsTo<OryMessage>()(
  z.looseObject({
    id: z.string(),
    status: courierMessageStatusSchema,
    type: z.enum(['email', 'phone']),
    channel: z.string().optional(),
    recipient: z.string(),
    subject: z.string(),
    body: z.string(),
    template_type: z.string() as z.ZodType<OryMessage['template_type']>,
    send_count: z.number(),
    dispatches: z.array(messageDispatchSchema).optional(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);
export type CourierMessage = z.infer<typeof messageSchema>;

export const messagesOutput = z.object({ messages: z.array(messageSchema), nextPageToken: z.string().nullable() });

export const testSendInput = z
  .object({
    projectId,
    kind: testEventKindSchema,
    recipient: z.string().trim().min(1, { error: 'Enter a recipient' }).max(320, { error: 'Recipient is at most 320 characters' }),
    channel: notificationChannelSchema.default('email'),
  })
  .superRefine((v, ctx) => {
    if (v.channel === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.recipient)) ctx.addIssue({ code: 'custom', path: ['recipient'], message: 'Enter an email address' });
    if (v.channel === 'sms' && !/^\+?[0-9][0-9 ()-]{4,19}$/.test(v.recipient)) ctx.addIssue({ code: 'custom', path: ['recipient'], message: 'Enter a phone number such as +4915112345678' });
  });

// ---- email and SMS configuration ----

/** default: no server of the project's own (the local mailbox on a local stack); smtp or http: Ory's delivery_strategy. */
export const deliveryStrategySchema = z.enum(['default', 'smtp', 'http'], { error: 'Delivery must be default, smtp or http' });
export const smtpSecuritySchema = z.enum(['starttls', 'implicit', 'none'], { error: 'Security must be starttls, implicit or none' });
export const httpMethodSchema = z.enum(['POST', 'PUT', 'PATCH'], { error: 'Method must be POST, PUT or PATCH' });

const hostSchema = z
  .string()
  .trim()
  .max(253, { error: 'The host is at most 253 characters' })
  .regex(/^$|^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/, { error: 'The host is a name or an address, without scheme or port' });
const httpUrlSchema = z
  .string()
  .trim()
  .max(2048, { error: 'The URL is at most 2048 characters' })
  .refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), { error: 'The URL starts with http:// or https://' });

/** What the console shows of `courier.smtp` / `courier.http`: never the SMTP password, only whether one is set. */
export const emailConfigOutput = z.object({
  strategy: deliveryStrategySchema,
  fromAddress: z.string(),
  fromName: z.string(),
  smtpHost: z.string(),
  smtpPort: z.number().int().nullable(),
  smtpUsername: z.string(),
  smtpPasswordSet: z.boolean(),
  smtpSecurity: smtpSecuritySchema,
  httpUrl: z.string(),
  httpMethod: httpMethodSchema,
});
export type EmailConfig = z.infer<typeof emailConfigOutput>;

/** Only what changed; an omitted or empty password keeps the stored one. */
export const setEmailConfigInput = z.object({
  projectId,
  strategy: deliveryStrategySchema.optional(),
  fromAddress: z
    .string()
    .trim()
    .max(320, { error: 'The sender address is at most 320 characters' })
    .refine((v) => v === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), { error: 'Enter the sender’s email address' })
    .optional(),
  fromName: z.string().trim().max(256, { error: 'The sender name is at most 256 characters' }).optional(),
  smtpHost: hostSchema.optional(),
  smtpPort: z.number({ error: 'The port is a number' }).int({ error: 'The port is a whole number' }).min(1, { error: 'The port is 1 to 65535' }).max(65535, { error: 'The port is 1 to 65535' }).nullable().optional(),
  smtpUsername: z.string().max(256, { error: 'The user name is at most 256 characters' }).optional(),
  smtpPassword: z.string().max(256, { error: 'The password is at most 256 characters' }).optional(),
  smtpSecurity: smtpSecuritySchema.optional(),
  httpUrl: httpUrlSchema.optional(),
  httpMethod: httpMethodSchema.optional(),
});
export type SetEmailConfigInput = z.infer<typeof setEmailConfigInput>;

/** How the SMS endpoint is authenticated (`request_config.auth.type`): none, HTTP basic, or an API key header. */
export const smsAuthTypeSchema = z.enum(['none', 'basic_auth', 'api_key'], { error: 'Authentication is none, basic_auth or api_key' });
export type SmsAuthType = z.infer<typeof smsAuthTypeSchema>;
const headerNameSchema = z
  .string()
  .trim()
  .max(256, { error: 'The header name is at most 256 characters' })
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]*$/, { error: 'The header name has letters, digits and - only, such as X-Api-Key' });

/**
 * The `sms` entry of `courier.channels` (an HTTP request per message) as the console shows it: never the
 * password or API key, only whether one is stored.
 */
export const smsConfigOutput = z.object({
  enabled: z.boolean(),
  url: z.string(),
  method: httpMethodSchema,
  authType: smsAuthTypeSchema,
  basicUser: z.string(),
  apiKeyName: z.string(),
  secretSet: z.boolean(),
});
export type SmsConfig = z.infer<typeof smsConfigOutput>;
export const setSmsConfigInput = z.object({
  projectId,
  enabled: z.boolean().optional(),
  url: httpUrlSchema.optional(),
  method: httpMethodSchema.optional(),
  authType: smsAuthTypeSchema.optional(),
  basicUser: z.string().max(256, { error: 'The user name is at most 256 characters' }).regex(/^[^:]*$/, { error: 'The user name cannot contain “:”' }).optional(),
  apiKeyName: headerNameSchema.optional(),
  /** The basic_auth password or the API key; omitted or empty keeps the stored one. */
  secret: z.string().max(1024, { error: 'The password or key is at most 1024 characters' }).optional(),
});
export type SetSmsConfigInput = z.infer<typeof setSmsConfigInput>;

export const projectRefInput = z.object({ projectId });

// ---- the console's forms (every field a string or boolean, as the inputs hold them) ----

export const templateForm = setTemplateInput.pick({ subject: true, html: true, plaintext: true });
export type TemplateFormValues = z.infer<typeof templateForm>;

export const emailConfigForm = z.object({
  strategy: deliveryStrategySchema,
  fromAddress: setEmailConfigInput.shape.fromAddress.unwrap(),
  fromName: setEmailConfigInput.shape.fromName.unwrap(),
  smtpHost: hostSchema,
  smtpPort: z.string().trim().regex(/^$|^\d{1,5}$/, { error: 'The port is a number from 1 to 65535' }),
  smtpUsername: z.string().max(256, { error: 'The user name is at most 256 characters' }),
  smtpPassword: z.string().max(256, { error: 'The password is at most 256 characters' }),
  smtpSecurity: smtpSecuritySchema,
  httpUrl: httpUrlSchema,
  httpMethod: httpMethodSchema,
});
export type EmailConfigFormValues = z.infer<typeof emailConfigForm>;

export const smsConfigForm = z.object({
  enabled: z.boolean(),
  url: httpUrlSchema,
  method: httpMethodSchema,
  authType: smsAuthTypeSchema,
  basicUser: setSmsConfigInput.shape.basicUser.unwrap(),
  apiKeyName: headerNameSchema,
  secret: setSmsConfigInput.shape.secret.unwrap(),
});
export type SmsConfigFormValues = z.infer<typeof smsConfigForm>;

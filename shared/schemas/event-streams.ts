import type { CreateEventStreamBody, EventStream, ListEventStreams, SetEventStreamBody } from '@ory/client';
import { z } from 'zod';
import { uuidSchema } from './common';
import { conformsTo } from './wire';

/*
 * Event streams (spec §7 "Event streams"; CONTRACT.md: EventsApi list, create, set, delete; no GET of one
 * stream). `https` streams get every event of the project as a signed POST; `sns` streams are stored and
 * checked, and delivered on Ory Network only.
 */

export const EVENT_STREAM_TYPES = ['https', 'sns'] as const;
export const EVENT_STREAM_STATUSES = ['active', 'paused'] as const;

/** An SNS topic ARN: arn:aws:sns:{region}:{12-digit account}:{topic}. */
export const TOPIC_ARN = /^arn:aws(-[a-z]+)*:sns:[a-z]{2}(-[a-z]+)+-\d:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/;
/** An IAM role ARN: arn:aws:iam::{12-digit account}:role/{path and name}. */
export const ROLE_ARN = /^arn:aws(-[a-z]+)*:iam::\d{12}:role\/[A-Za-z0-9+=,.@_/-]{1,512}$/;

const endpoint = z
  .string()
  .max(2048, { error: 'An endpoint has at most 2048 characters.' })
  .refine((v) => URL.canParse(v) && ['http:', 'https:'].includes(new URL(v).protocol), { error: 'Enter the endpoint as an https:// URL.' });
const topicArn = z.string().max(1024).regex(TOPIC_ARN, { error: 'Enter an SNS topic ARN such as arn:aws:sns:us-east-1:123456789012:ory-events.' });
const roleArn = z.string().max(1024).regex(ROLE_ARN, { error: 'Enter an IAM role ARN such as arn:aws:iam::123456789012:role/ory-events.' });

// ---- wire ----
export const eventStreamSchema = conformsTo<EventStream>()(
  z.looseObject({
    id: z.string(),
    type: z.string(),
    status: z.enum(EVENT_STREAM_STATUSES),
    https_endpoint: z.string().optional(),
    topic_arn: z.string().optional(),
    role_arn: z.string().optional(),
    created_at: z.string(),
    updated_at: z.string(),
  }),
);
/** The create answer: the stream and, this once, the secret its requests are signed with. */
export const createdEventStreamSchema = eventStreamSchema.extend({ secret: z.string() });
export const eventStreamListSchema = conformsTo<ListEventStreams>()(z.object({ event_streams: z.array(eventStreamSchema) }));

const destinationRule = (v: { type?: string; https_endpoint?: string; topic_arn?: string; role_arn?: string }, ctx: z.RefinementCtx) => {
  if (v.type === 'https' && !v.https_endpoint) ctx.addIssue({ code: 'custom', path: ['https_endpoint'], message: 'An https stream needs the endpoint to send events to.' });
  if (v.type === 'sns') {
    if (!v.topic_arn) ctx.addIssue({ code: 'custom', path: ['topic_arn'], message: 'An sns stream needs the SNS topic ARN.' });
    if (!v.role_arn) ctx.addIssue({ code: 'custom', path: ['role_arn'], message: 'An sns stream needs the IAM role ARN to publish with.' });
  }
};
const bodyFields = {
  status: z.enum(EVENT_STREAM_STATUSES, { error: 'status must be active or paused' }).optional(),
  https_endpoint: endpoint.optional(),
  topic_arn: topicArn.optional(),
  role_arn: roleArn.optional(),
};
export const createEventStreamBody = conformsTo<CreateEventStreamBody>()(
  z.object({ type: z.enum(EVENT_STREAM_TYPES, { error: 'type must be https or sns' }), ...bodyFields }).superRefine(destinationRule),
);
export const setEventStreamBody = conformsTo<SetEventStreamBody>()(z.object({ type: z.enum(EVENT_STREAM_TYPES, { error: 'type must be https or sns' }).optional(), ...bodyFields }));

/** One attempt at delivering an event to a stream (the local stack's delivery log; no Ory call). */
export const deliveryAttemptSchema = z.object({
  id: z.string(),
  delivery_id: z.string(),
  event_type: z.string(),
  attempt: z.number().int(),
  status: z.enum(['success', 'failed']),
  response_code: z.number().int().nullable(),
  latency_ms: z.number().int(),
  error: z.string().nullable(),
  at: z.string(),
  delivery_status: z.enum(['pending', 'success', 'failed']),
});
export const deliveryLogSchema = z.object({ attempts: z.array(deliveryAttemptSchema), next_page_token: z.string().optional() });
export type DeliveryAttempt = z.infer<typeof deliveryAttemptSchema>;
export const deliveryLogQuery = z.object({
  page_size: z.coerce.number().int().min(1).max(100).optional(),
  page_token: z.string().min(1).max(512).optional(),
});
export const replayAnswerSchema = z.object({ delivery_id: z.string() });
export const testSendAnswerSchema = deliveryAttemptSchema;

// ---- procedures ----
const streamRef = { projectId: uuidSchema, streamId: uuidSchema };
export const eventStreamsListOutput = z.array(eventStreamSchema);
export const eventStreamCreateInput = z
  .object({ projectId: uuidSchema, type: z.enum(EVENT_STREAM_TYPES, { error: 'Choose https or sns.' }), ...bodyFields })
  .superRefine(destinationRule);
export const eventStreamCreateOutput = createdEventStreamSchema;
export const eventStreamSetInput = z.object({ ...streamRef, type: z.enum(EVENT_STREAM_TYPES, { error: 'Choose https or sns.' }).optional(), ...bodyFields });
export const eventStreamSetOutput = eventStreamSchema;
export const eventStreamRefInput = z.object(streamRef);
export const okOutput = z.object({ ok: z.literal(true) });
export const eventStreamDeliveriesInput = z.object({ ...streamRef, pageToken: z.string().min(1).max(512).optional() });
export const eventStreamDeliveriesOutput = z.object({ attempts: z.array(deliveryAttemptSchema), nextPageToken: z.string().optional() });
export const eventStreamReplayInput = z.object({ ...streamRef, deliveryId: uuidSchema });
export const eventStreamReplayOutput = replayAnswerSchema;
export const eventStreamSendTestOutput = deliveryAttemptSchema;

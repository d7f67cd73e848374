import type {
  GetAttributesCount,
  GetMetricsEventAttributes,
  GetMetricsEventTypes,
  GetProjectEvents,
  GetProjectMetrics,
  GetSessionActivity,
} from '@ory/client';
import { z } from 'zod';
import { RESOLUTION_PATTERN } from '../domain/metrics';
import { uuidSchema } from './common';
import { conformsTo } from './wire';

/*
 * Project metrics (spec §7 "Metrics"; CONTRACT.md: the SPEC orphans getProjectMetrics, getAttributesCount,
 * getMetricsEventAttributes, getMetricsEventTypes, getSessionActivity, getProjectEvents).
 */

// ---- wire answers ----
export const metricsSeriesSchema = conformsTo<GetProjectMetrics>()(
  z.object({ data: z.array(z.object({ time: z.string(), count: z.number().int() })) }),
);
export const attributesCountSchema = conformsTo<GetAttributesCount>()(
  z.object({ data: z.array(z.object({ name: z.string(), count: z.number().int() })) }),
);
export const eventNamesSchema = conformsTo<GetMetricsEventTypes & GetMetricsEventAttributes>()(z.object({ events: z.array(z.string()) }));
export const sessionActivitySchema = conformsTo<GetSessionActivity>()(
  z.object({ data: z.array(z.object({ country: z.string(), succeeded: z.number().int(), failed: z.number().int() })) }),
);
export const projectEventSchema = z.object({
  name: z.string(),
  timestamp: z.string(),
  attributes: z.array(z.object({ key: z.string(), value: z.string() })),
});
export const projectEventsSchema = conformsTo<GetProjectEvents>()(
  z.object({ events: z.array(projectEventSchema), page_token: z.string().optional() }),
);
export type ProjectEvent = z.infer<typeof projectEventSchema>;

// ---- shared pieces of inputs ----
const instant = (what: string) => z.iso.datetime({ offset: true, error: `${what} must be an RFC 3339 date and time, such as 2026-01-31T00:00:00Z` });
const eventName = z
  .string()
  .min(1, { error: 'Choose an event type.' })
  .max(100, { error: 'An event type has at most 100 characters.' })
  .regex(/^[A-Za-z0-9_.-]+$/, { error: 'An event type is a name such as LoginSucceeded.' });
const attributeKey = z
  .string()
  .min(1, { error: 'Choose an attribute.' })
  .max(100, { error: 'An attribute name has at most 100 characters.' })
  .regex(/^[A-Za-z0-9_.-]+$/, { error: 'An attribute is a name such as method.' });

export const attributeConditions = ['equals', 'not_equals', 'contains', 'not_contains', 'regex', 'not_regex', 'set', 'not_set'] as const;
export const attributeFilterSchema = z.object({
  attribute: attributeKey,
  condition: z.enum(attributeConditions, { error: `condition must be one of ${attributeConditions.join(', ')}` }),
  value: z.string().max(200, { error: 'A filter value has at most 200 characters.' }).optional(),
});
export type AttributeFilterInput = z.infer<typeof attributeFilterSchema>;

const range = { from: instant('from'), to: instant('to') };
const rangeOrdered = <T extends { from: string; to: string }>(v: T) => Date.parse(v.from) < Date.parse(v.to);
const rangeMessage = { error: 'from must be before to.', path: ['to'] };

// ---- wire queries (the local stack's, Ory's parameter names) ----
export const metricsSeriesQuery = z
  .object({
    event_type: eventName,
    resolution: z.string().regex(RESOLUTION_PATTERN, { error: 'resolution must be a number and a unit (m, h, d, M or y), such as 1h or 1d' }),
    ...range,
  })
  .refine(rangeOrdered, rangeMessage);
export const metricsRangeQuery = z.object(range).refine(rangeOrdered, rangeMessage);
export const metricsAttributesQuery = z
  .object({ ...range, attribute: attributeKey, event_type: eventName.optional() })
  .refine(rangeOrdered, rangeMessage);
export const projectEventsBody = z
  .object({
    ...range,
    event_name: eventName.optional(),
    filters: z.array(attributeFilterSchema).max(10, { error: 'At most 10 filters.' }).optional(),
    page_size: z.number().int().min(1).max(500).optional(),
    page_token: z.string().min(1).max(512).optional(),
  })
  .refine(rangeOrdered, rangeMessage);

// ---- procedures ----
const projectRange = { projectId: uuidSchema, from: instant('from'), to: instant('to') };
export const metricsSeriesInput = z
  .object({
    ...projectRange,
    eventType: eventName,
    resolution: z.string().regex(RESOLUTION_PATTERN, { error: 'Choose a resolution such as 1h or 1d.' }),
  })
  .refine(rangeOrdered, rangeMessage);
export const metricsAttributesInput = z
  .object({ ...projectRange, attribute: attributeKey, eventType: eventName.optional() })
  .refine(rangeOrdered, rangeMessage);
export const metricsSessionsInput = z.object(projectRange).refine(rangeOrdered, rangeMessage);
export const metricsEventsInput = z
  .object({
    ...projectRange,
    eventName: eventName.optional(),
    filters: z.array(attributeFilterSchema).max(10, { error: 'At most 10 filters.' }).optional(),
    pageSize: z.number().int().min(1).max(500).optional(),
    pageToken: z.string().min(1).max(512).optional(),
  })
  .refine(rangeOrdered, rangeMessage);

export const metricsSeriesOutput = metricsSeriesSchema;
export const metricsAttributesOutput = attributesCountSchema;
export const metricsEventTypesOutput = z.object({ eventTypes: z.array(z.string()), attributes: z.array(z.string()) });
export const metricsSessionsOutput = sessionActivitySchema;

/**
 * Daily active users of a project counted from its events (distinct identities that started a session each
 * UTC day: sign-up, sign-in, recovery), and the sessions active now. The local stack's own call.
 */
export const activeUsersSchema = z.object({
  data: z.array(z.object({ time: z.string(), count: z.number().int() })),
  active_sessions: z.number().int(),
});
export const metricsActiveUsersInput = metricsSessionsInput;
export const metricsActiveUsersOutput = z.object({ daily: activeUsersSchema.shape.data, activeSessions: z.number().int() });
export const metricsEventsOutput = z.object({ events: z.array(projectEventSchema), nextPageToken: z.string().optional() });


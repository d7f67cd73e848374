import { z } from 'zod';
import { ANALYTICS_STRING_CAP } from '../constants';

/** One captured event as the console's analytics client sends it to /ingest (PostHog's batch shape). */
export const ingestEventSchema = z.object({
  event: z.string().min(1, { error: 'event: is required' }).max(200, { error: 'event: must be at most 200 characters' }),
  distinct_id: z.string().max(200).nullable().optional(),
  timestamp: z.iso.datetime({ offset: true, error: 'timestamp: must be an ISO 8601 date and time' }),
  properties: z.record(z.string().max(200), z.unknown()).default({}),
});
export type IngestEvent = z.infer<typeof ingestEventSchema>;

/** Most events one batch may carry (the client's queue sends at most this many per request). */
export const INGEST_MAX_EVENTS = 100;

/** A batch of at most 100 events. */
export const ingestBatchSchema = z.object({
  batch: z
    .array(ingestEventSchema)
    .min(1, { error: 'batch: must hold at least one event' })
    .max(INGEST_MAX_EVENTS, { error: `batch: must hold at most ${INGEST_MAX_EVENTS} events` }),
  sent_at: z.iso.datetime({ offset: true }).optional(),
});

/** Caps every string inside a value at the spec's 65535 characters (§9), keys included. */
export function capStrings(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return value.length > ANALYTICS_STRING_CAP ? value.slice(0, ANALYTICS_STRING_CAP) : value;
  if (depth > 8 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => capStrings(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.slice(0, ANALYTICS_STRING_CAP), capStrings(v, depth + 1)]));
}

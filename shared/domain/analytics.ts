import {
  ANALYTICS_EVENTS_BURST,
  ANALYTICS_EVENTS_PER_SECOND,
  ANALYTICS_FLUSH_INTERVAL_DEFAULT_MS,
  ANALYTICS_FLUSH_INTERVAL_MAX_MS,
  ANALYTICS_FLUSH_INTERVAL_MIN_MS,
  ANALYTICS_SESSION_IDLE_DEFAULT_S,
  ANALYTICS_SESSION_IDLE_MAX_S,
  ANALYTICS_SESSION_IDLE_MIN_S,
} from '../constants';

/** Spec §1: the analytics events the console tracks, named as the spec names them. */
export const ANALYTICS_EVENTS = {
  projectCreated: 'project created',
  projectSwitched: 'project switched',
  workspaceCreated: 'workspace created',
  pricingPlanChanged: 'pricing plan changed',
  memberInviteCreated: 'member invite created',
} as const;
/** One of the spec's analytics event names. */
export type AnalyticsEvent = (typeof ANALYTICS_EVENTS)[keyof typeof ANALYTICS_EVENTS];

/**
 * The browser's word that the user consented to analytics (spec §1), sent with every batch when they did.
 * Off a local stack, /ingest takes batches only from a signed-in session that sends it.
 */
export const ANALYTICS_CONSENT_HEADER = 'x-analytics-consent';

/** Spec §1: analytics run only with the user's consent, or on a local stack. */
export function analyticsEnabled(options: { consented: boolean; localStack: boolean }): boolean {
  return options.consented || options.localStack;
}

function clamp(value: number | null | undefined, min: number, max: number, fallback: number): number {
  if (typeof value !== 'number' || Number.isNaN(value)) return fallback;
  return Math.min(max, Math.max(min, value));
}

/** Spec §9: the flush interval in ms, clamped to 250..5000; missing or NaN → 3000. */
export function clampFlushInterval(ms?: number | null): number {
  return clamp(ms, ANALYTICS_FLUSH_INTERVAL_MIN_MS, ANALYTICS_FLUSH_INTERVAL_MAX_MS, ANALYTICS_FLUSH_INTERVAL_DEFAULT_MS);
}

/** Spec §9: the session idle timeout in seconds, clamped to 60..36000; missing or NaN → 1800. */
export function clampSessionIdleTimeout(seconds?: number | null): number {
  return clamp(seconds, ANALYTICS_SESSION_IDLE_MIN_S, ANALYTICS_SESSION_IDLE_MAX_S, ANALYTICS_SESSION_IDLE_DEFAULT_S);
}

/** A token bucket of events: how many may go now, as of when. */
export interface EventBucket {
  tokens: number;
  at: number;
}

/** The spec §9 rate: 10 events a second, bursts of 100. */
export const EVENT_RATE = { perSecond: ANALYTICS_EVENTS_PER_SECOND, burst: ANALYTICS_EVENTS_BURST } as const;

/**
 * Spec §9 rate limit for `count` events at `now` (ms): a bucket of 100 refilled at 10 a second. All or
 * nothing: a batch larger than what is left takes no token and is told how long until it would fit (a batch
 * larger than the burst never fits: Infinity).
 */
export function takeEvents(bucket: EventBucket | undefined, count: number, now: number): { allowed: boolean; bucket: EventBucket; retryAfterMs: number } {
  const { perSecond, burst } = EVENT_RATE;
  const elapsed = bucket ? Math.max(0, now - bucket.at) : 0;
  const tokens = bucket ? Math.min(burst, bucket.tokens + (elapsed * perSecond) / 1000) : burst;
  if (count <= tokens) return { allowed: true, bucket: { tokens: tokens - count, at: now }, retryAfterMs: 0 };
  const retryAfterMs = count > burst ? Number.POSITIVE_INFINITY : Math.ceil(((count - tokens) * 1000) / perSecond);
  return { allowed: false, bucket: { tokens, at: now }, retryAfterMs };
}

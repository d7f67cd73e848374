import {
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

import { ANALYTICS_STRING_CAP } from '../../../shared/constants';
import { analyticsEnabled } from '../../../shared/domain/analytics';

export { ANALYTICS_EVENTS } from '../../../shared/domain/analytics';

export interface AnalyticsEvent {
  event: string;
  properties: Record<string, unknown>;
  distinctId: string | null;
  timestamp: string;
}

/** Where captured events go. The local stack keeps them in memory; a hosted build sends them to /ingest. */
export interface AnalyticsSink {
  send(event: AnalyticsEvent): void;
}

/** The customer-analytics tool the console identifies users to. */
export interface CustomerAnalytics {
  identify(userId: string, traits: Record<string, string | undefined>): void;
}

export interface Analytics extends CustomerAnalytics {
  readonly enabled: boolean;
  capture(event: string, properties?: Record<string, unknown>): void;
  capturePageView(path: string): void;
  /** What was captured so far (the in-memory sink's record; empty when disabled). */
  events(): readonly AnalyticsEvent[];
}

function capString(value: unknown): unknown {
  return typeof value === 'string' && value.length > ANALYTICS_STRING_CAP ? value.slice(0, ANALYTICS_STRING_CAP) : value;
}

export function createAnalytics(opts: { enabled: boolean; sink?: AnalyticsSink; now?: () => Date }): Analytics {
  const recorded: AnalyticsEvent[] = [];
  const now = opts.now ?? (() => new Date());
  let distinctId: string | null = null;

  const capture = (event: string, properties: Record<string, unknown> = {}) => {
    if (!opts.enabled) return;
    const props = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, capString(v)]));
    const record: AnalyticsEvent = { event, properties: props, distinctId, timestamp: now().toISOString() };
    recorded.push(record);
    opts.sink?.send(record);
  };

  return {
    enabled: opts.enabled,
    capture,
    capturePageView: (path) => capture('$pageview', { path }),
    identify: (userId, traits) => {
      if (!opts.enabled) return;
      distinctId = userId;
      capture('$identify', { ...traits });
    },
    events: () => recorded,
  };
}

type DataLayerWindow = Window & { dataLayer?: unknown[] };

/** Pushes an event to the page data layer (tag managers read `window.dataLayer`). */
export function pushDataLayer(event: Record<string, unknown>, target: DataLayerWindow = window): void {
  target.dataLayer = target.dataLayer ?? [];
  target.dataLayer.push(event);
}

export const ANALYTICS_CONSENT_KEY = 'analytics-consent';

function readConsent(): boolean {
  try {
    return window.localStorage.getItem(ANALYTICS_CONSENT_KEY) === 'granted';
  } catch {
    return false;
  }
}

/** The console runs on the embedded local stack unless the build says it talks to the cloud. */
const localStack = import.meta.env.VITE_UPSTREAM_MODE !== 'remote';

export const analytics: Analytics = createAnalytics({
  enabled: typeof window !== 'undefined' && analyticsEnabled({ consented: readConsent(), localStack }),
});

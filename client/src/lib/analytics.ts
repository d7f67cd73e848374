import { ANALYTICS_STRING_CAP } from '../../../shared/constants';
import { ANALYTICS_CONSENT_HEADER, analyticsEnabled } from '../../../shared/domain/analytics';
import { createEventQueue, createSessionTracker, realClock, type EventQueue, type QueueClock, type SendOutcome } from './analytics-queue';

export { ANALYTICS_EVENTS } from '../../../shared/domain/analytics';

export interface AnalyticsEvent {
  event: string;
  properties: Record<string, unknown>;
  distinctId: string | null;
  timestamp: string;
}

/** Where captured events go: the batching queue that posts them to /ingest on our own origin. */
export interface AnalyticsSink {
  send(event: AnalyticsEvent): void;
}

/** The customer-analytics tool the console identifies users to. */
export interface CustomerAnalytics {
  identify(userId: string, traits: Record<string, string | undefined>): void;
}

export interface Analytics extends CustomerAnalytics {
  /** Whether events are captured now (consent given, or a local stack the user did not refuse). */
  readonly enabled: boolean;
  capture(event: string, properties?: Record<string, unknown>): void;
  capturePageView(path: string): void;
  /** What was captured so far in this page's life (empty while disabled). */
  events(): readonly AnalyticsEvent[];
}

function capString(value: unknown): unknown {
  return typeof value === 'string' && value.length > ANALYTICS_STRING_CAP ? value.slice(0, ANALYTICS_STRING_CAP) : value;
}

/** Captures events while `isEnabled()` says so, and drops them otherwise: nothing is kept for later. */
export function createAnalytics(opts: { enabled: boolean | (() => boolean); sink?: AnalyticsSink; now?: () => Date }): Analytics {
  const recorded: AnalyticsEvent[] = [];
  const now = opts.now ?? (() => new Date());
  const isEnabled = typeof opts.enabled === 'function' ? opts.enabled : () => opts.enabled as boolean;
  let distinctId: string | null = null;

  const capture = (event: string, properties: Record<string, unknown> = {}) => {
    if (!isEnabled()) return;
    const props = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, capString(v)]));
    const record: AnalyticsEvent = { event, properties: props, distinctId, timestamp: now().toISOString() };
    recorded.push(record);
    opts.sink?.send(record);
  };

  return {
    get enabled() {
      return isEnabled();
    },
    capture,
    capturePageView: (path) => capture('$pageview', { path }),
    identify: (userId, traits) => {
      if (!isEnabled()) return;
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
export type Consent = 'granted' | 'denied' | null;

/**
 * The outcome of posting a batch to /ingest: 429 or a quota answer pauses, 5xx and network failures retry.
 * `consented` sends the user's consent with it (off a local stack the server takes nothing without it).
 */
export async function postBatch(url: string, batch: unknown[], fetcher: typeof fetch = fetch, consented = false): Promise<SendOutcome> {
  let res: Response;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-console-request': '1', ...(consented ? { [ANALYTICS_CONSENT_HEADER]: 'granted' } : {}) };
  try {
    res = await fetcher(url, { method: 'POST', headers, body: JSON.stringify({ batch, sent_at: new Date().toISOString() }), keepalive: true });
  } catch {
    return 'retry';
  }
  if (res.status === 429) return 'quota';
  if (res.status >= 500) return 'retry';
  if (!res.ok) return 'drop';
  const body = (await res.json().catch(() => null)) as { quota_limited?: unknown } | null;
  return body?.quota_limited ? 'quota' : 'ok';
}

/** Surveys, web experiments and remote config: read with GET, given up after 10 s. */
export async function readRemote<T>(path: string, fetcher: typeof fetch = fetch, timeoutMs = 10_000): Promise<T | null> {
  try {
    const res = await fetcher(path, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } });
    return res.ok ? ((await res.json()) as T) : null;
  } catch {
    return null;
  }
}

interface ClientConfig {
  analytics: { consentRequired: boolean };
}

/**
 * The console's analytics: consent first. Until the server has said whether this console runs on a local
 * stack nothing is captured; then events are captured when the user consented, or on a local stack unless
 * the user refused. Events are batched to /ingest on our own origin.
 */
function createConsoleAnalytics(clock: QueueClock = realClock) {
  let consent: Consent = readConsent();
  let config: ClientConfig | null = null;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  const sessions = createSessionTracker({ clock });
  let queue: EventQueue<Record<string, unknown>> | null = null;

  const enabled = () => config !== null && (consent === 'granted' || (consent === null && analyticsEnabled({ consented: false, localStack: !config.analytics.consentRequired })));
  const ensureQueue = (flushIntervalMs?: number) => {
    if (!queue) {
      queue = createEventQueue({ clock, flushIntervalMs: flushIntervalMs ?? null, send: (batch) => postBatch('/ingest/batch', batch, fetch, consent === 'granted') });
      // Leaving or hiding the page sends what waits at once (keepalive lets the request outlive the page).
      const q = queue;
      window.addEventListener('pagehide', () => void q.flush());
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'hidden') void q.flush();
      });
    }
    return queue;
  };
  const sink: AnalyticsSink = {
    send(e) {
      ensureQueue().enqueue({
        event: e.event,
        distinct_id: e.distinctId,
        timestamp: e.timestamp,
        properties: { ...e.properties, $session_id: sessions.touch(), $current_url: window.location.pathname },
      });
    },
  };
  const analytics = createAnalytics({ enabled, sink });

  const start = async () => {
    const remote = await readRemote<{ flush_interval_ms?: number }>('/ingest/remote_config');
    ensureQueue(remote?.flush_interval_ms);
    void readRemote('/ingest/surveys');
    void readRemote('/ingest/web_experiments');
  };

  return {
    analytics,
    consent: () => consent,
    /** Whether the banner should ask: consent is required here and the user has not answered. */
    needsAnswer: () => config !== null && config.analytics.consentRequired && consent === null,
    consentRequired: () => config?.analytics.consentRequired ?? true,
    setConsent(next: Exclude<Consent, null>) {
      consent = next;
      try {
        window.localStorage.setItem(ANALYTICS_CONSENT_KEY, next);
      } catch {
        // Private mode: the answer holds for this page only.
      }
      if (enabled()) void start();
      notify();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    async load() {
      const answer = await readRemote<ClientConfig>('/api/client-config');
      config = answer ?? { analytics: { consentRequired: true } };
      if (enabled()) await start();
      notify();
    },
  };
}

function readConsent(): Consent {
  try {
    const stored = window.localStorage.getItem(ANALYTICS_CONSENT_KEY);
    return stored === 'granted' || stored === 'denied' ? stored : null;
  } catch {
    return null;
  }
}

export const consoleAnalytics = typeof window !== 'undefined' ? createConsoleAnalytics() : null;
export const analytics: Analytics = consoleAnalytics?.analytics ?? createAnalytics({ enabled: false });

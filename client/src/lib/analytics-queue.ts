import {
  ANALYTICS_EVENTS_BURST,
  ANALYTICS_EVENTS_PER_SECOND,
  ANALYTICS_MAX_RETRIES,
  ANALYTICS_QUOTA_BLOCK_MS,
  ANALYTICS_RETRY_BACKOFF_CAP_MS,
  ANALYTICS_SESSION_MAX_MS,
} from '../../../shared/constants';
import { clampFlushInterval, clampSessionIdleTimeout } from '../../../shared/domain/analytics';

/*
 * The analytics transport, with the spec §9 limits, written against an injected clock so that tests drive
 * it without waiting: events are batched and flushed every interval (clamped 250–5000 ms, default 3000);
 * capture is rate limited to 10 events a second with a burst of 100 (token bucket; over the limit an event
 * is dropped); when the server answers with its quota, nothing is sent or kept for 60 s; a failed send is
 * retried up to 10 times with exponential backoff capped at 30 minutes, then dropped.
 */

export interface QueueClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: QueueClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** What a send came to: accepted, refused for the quota, or failed (network, 5xx) and worth retrying. A refusal for another reason drops the batch. */
export type SendOutcome = 'ok' | 'quota' | 'retry' | 'drop';

export interface QueueOptions<E> {
  clock: QueueClock;
  send: (batch: E[]) => Promise<SendOutcome>;
  flushIntervalMs?: number | null;
  /** Largest batch one request carries. */
  maxBatch?: number;
  onDrop?: (reason: 'rate_limited' | 'quota' | 'retries_exhausted' | 'refused', count: number) => void;
}

export interface EventQueue<E> {
  /** Queues an event; false when it was dropped (rate limit, quota pause). */
  enqueue(event: E): boolean;
  /** Sends what is queued now (the timer does this on its own). */
  flush(): Promise<void>;
  pending(): number;
  /** Until when sending is paused for the server's quota (ms since epoch), or null. */
  pausedUntil(): number | null;
  stop(): void;
}

export function retryDelay(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** attempt, ANALYTICS_RETRY_BACKOFF_CAP_MS);
}

export function createEventQueue<E>(opts: QueueOptions<E>): EventQueue<E> {
  const { clock } = opts;
  const interval = clampFlushInterval(opts.flushIntervalMs);
  const maxBatch = opts.maxBatch ?? 100;
  const queue: E[] = [];
  let tokens = ANALYTICS_EVENTS_BURST;
  let refilledAt = clock.now();
  let pausedUntil: number | null = null;
  let attempt = 0;
  let timer: unknown = null;
  let sending = false;
  let stopped = false;

  const schedule = (ms: number) => {
    if (stopped || timer !== null) return;
    timer = clock.setTimeout(() => {
      timer = null;
      void flush();
    }, ms);
  };

  const refill = () => {
    const now = clock.now();
    tokens = Math.min(ANALYTICS_EVENTS_BURST, tokens + ((now - refilledAt) / 1000) * ANALYTICS_EVENTS_PER_SECOND);
    refilledAt = now;
  };

  const paused = () => {
    if (pausedUntil !== null && clock.now() >= pausedUntil) pausedUntil = null;
    return pausedUntil !== null;
  };

  async function flush(): Promise<void> {
    if (sending || stopped || queue.length === 0) return;
    if (paused()) return schedule(pausedUntil! - clock.now());
    sending = true;
    const batch = queue.splice(0, maxBatch);
    let outcome: SendOutcome;
    try {
      outcome = await opts.send(batch);
    } catch {
      outcome = 'retry';
    }
    sending = false;
    if (outcome === 'ok') attempt = 0;
    else if (outcome === 'quota') {
      // The server is over its quota: what was sent and what waits are dropped, and nothing is sent for 60 s.
      pausedUntil = clock.now() + ANALYTICS_QUOTA_BLOCK_MS;
      opts.onDrop?.('quota', batch.length + queue.length);
      queue.length = 0;
      attempt = 0;
      return;
    } else if (outcome === 'drop') {
      opts.onDrop?.('refused', batch.length);
      attempt = 0;
    } else if (attempt >= ANALYTICS_MAX_RETRIES) {
      opts.onDrop?.('retries_exhausted', batch.length);
      attempt = 0;
    } else {
      queue.unshift(...batch);
      schedule(retryDelay(attempt, interval));
      attempt += 1;
      return;
    }
    if (queue.length > 0) schedule(interval);
  }

  return {
    enqueue(event) {
      if (stopped) return false;
      if (paused()) {
        opts.onDrop?.('quota', 1);
        return false;
      }
      refill();
      if (tokens < 1) {
        opts.onDrop?.('rate_limited', 1);
        return false;
      }
      tokens -= 1;
      queue.push(event);
      schedule(interval);
      return true;
    },
    flush,
    pending: () => queue.length,
    pausedUntil: () => (paused() ? pausedUntil : null),
    stop() {
      stopped = true;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
  };
}

export interface SessionTracker {
  /** The session id for an event now: a new one after the idle timeout or 24 hours. */
  touch(): string;
}

/** Analytics sessions: idle timeout clamped 60–36000 s (default 1800), at most 24 hours each. */
export function createSessionTracker(opts: { clock: Pick<QueueClock, 'now'>; idleTimeoutS?: number | null; newId?: () => string }): SessionTracker {
  const idleMs = clampSessionIdleTimeout(opts.idleTimeoutS) * 1000;
  const newId = opts.newId ?? (() => crypto.randomUUID());
  let id: string | null = null;
  let startedAt = 0;
  let lastAt = 0;
  return {
    touch() {
      const now = opts.clock.now();
      if (id === null || now - lastAt > idleMs || now - startedAt >= ANALYTICS_SESSION_MAX_MS) {
        id = newId();
        startedAt = now;
      }
      lastAt = now;
      return id;
    },
  };
}

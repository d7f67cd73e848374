import { createHash } from 'node:crypto';
import { sessionCookieHeader } from '../upstream/cookies';

/** A small per-instance cache with a time to live and a size bound (oldest entries go first). */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  set(key: string, value: V): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expires: Date.now() + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  deletePrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** A cache key for the caller's session: a hash of the session cookie(s), never the cookie itself. */
export function sessionKey(cookie: string | undefined): string | undefined {
  const session = sessionCookieHeader(cookie);
  if (!session) return undefined;
  const normalized = session
    .split('; ')
    .sort()
    .join('; ');
  return createHash('sha256').update(normalized).digest('base64url');
}

/**
 * Upstream questions in flight, per instance: a second caller asking the same question (same key, which
 * names the session) while the first is waiting shares its answer instead of asking again. The several
 * procedures of one batch ask the same permission and the same project slug at the same moment.
 */
export class InFlight {
  private readonly pending = new Map<string, Promise<unknown>>();

  /** `enabled: false` (a cache turned off) asks upstream every time. */
  constructor(private readonly enabled = true) {}

  run<T>(key: string | undefined, start: () => Promise<T>): Promise<T> {
    if (!this.enabled || key === undefined) return start();
    const waiting = this.pending.get(key) as Promise<T> | undefined;
    if (waiting) return waiting;
    const asking = start();
    this.pending.set(key, asking);
    const forget = () => {
      if (this.pending.get(key) === asking) this.pending.delete(key);
    };
    asking.then(forget, forget);
    return asking;
  }

  deletePrefix(prefix: string): void {
    for (const key of this.pending.keys()) if (key.startsWith(prefix)) this.pending.delete(key);
  }

  get size(): number {
    return this.pending.size;
  }
}

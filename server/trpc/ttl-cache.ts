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

import { LRUCache } from 'lru-cache';
import { CONSOLE_NID } from './tenant-id';

/**
 * Bounded caches of what every call looks up before its own work: the project its slug names, the API key it
 * presents and the console session its cookie carries. They change rarely and are read on every call, so a
 * permission check would otherwise spend about half its database time on them.
 *
 * Correctness: every write that can change an answer (a project updated or deleted, a member removed or given
 * another role, a key deleted, an identity or workspace deleted, a console session revoked, deleted or
 * extended, a console identity changed) calls `authorizationChanged()`, which makes
 * every entry stale at once; a transaction that called it calls it again once it has ended (see `db.tx`), so
 * an entry read while it ran is not kept. Entries also age out after `MAX_AGE_MS`, which bounds what a write
 * this process does not see (another process on the same database) can leave behind. Only found rows are kept:
 * a slug or key that is unknown now is looked up again next time.
 */
export const MAX_AGE_MS = 5_000;

let generation = 0;

/** Marks every cached answer stale: call after a write that may change which project a slug names or what a key may do. */
export function authorizationChanged(): void {
  generation++;
}

/** For a write to the sessions or identities of tenant `nid`: only the console's own can change a cached answer. */
export function consoleIdentitiesChanged(nid: string): void {
  if (nid === CONSOLE_NID) authorizationChanged();
}

/**
 * Runs a transaction; when a write in it marked the caches stale, marks them stale again once it has ended: an
 * entry read while it ran (before its commit made the change visible) is not kept.
 */
export async function afterAuthorizationWrites<T>(transaction: () => Promise<T>): Promise<T> {
  const before = generation;
  try {
    return await transaction();
  } finally {
    if (generation !== before) generation++;
  }
}

/** A database, as opposed to one of its transactions (which has no `tx` of its own). */
const isDatabase = (db: object) => typeof (db as { tx?: unknown }).tx === 'function';

/**
 * A cache of at most `max` entries per database (several stacks may run in one process, each on its own). Inside
 * a transaction it reads afresh: a write checks what it is about to change as its transaction sees it.
 */
export function createAuthorizationCache<V extends object>(max: number) {
  const perDatabase = new WeakMap<object, LRUCache<string, { value: V; generation: number; at: number }>>();
  return {
    /** The cached value of `key` read from `db`, or what `load` finds there (kept when found). */
    async get(db: object, key: string, load: () => Promise<V | null>): Promise<V | null> {
      if (!isDatabase(db)) return load();
      let entries = perDatabase.get(db);
      if (!entries) perDatabase.set(db, (entries = new LRUCache({ max })));
      const hit = entries.get(key);
      if (hit && hit.generation === generation && performance.now() - hit.at < MAX_AGE_MS) return hit.value;
      // Read before loading: a change while the row is read leaves the entry stale.
      const seen = generation;
      const at = performance.now();
      const value = await load();
      if (value) entries.set(key, { value, generation: seen, at });
      else entries.delete(key);
      return value;
    },
  };
}

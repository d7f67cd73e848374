import { describe, expect, it } from 'vitest';
import { afterAuthorizationWrites, authorizationChanged, createAuthorizationCache } from './authz-cache';

describe('the authorization cache', () => {
  const counting = () => {
    let loads = 0;
    return { load: async () => ({ n: ++loads }), loads: () => loads };
  };
  /** A database (it runs transactions); one of its transactions has no `tx` of its own. */
  const database = () => ({ tx: async () => undefined });

  it('keeps a found value per database until something changes', async () => {
    const cache = createAuthorizationCache<{ n: number }>(10);
    const [a, b] = [database(), database()];
    const source = counting();
    expect(await cache.get(a, 'k', source.load)).toEqual({ n: 1 });
    expect(await cache.get(a, 'k', source.load)).toEqual({ n: 1 });
    expect(await cache.get(b, 'k', source.load)).toEqual({ n: 2 });
    authorizationChanged();
    expect(await cache.get(a, 'k', source.load)).toEqual({ n: 3 });
  });

  it('keeps nothing that was not found, and nothing read while a change happened', async () => {
    const cache = createAuthorizationCache<{ n: number }>(10);
    const db = database();
    let loads = 0;
    expect(await cache.get(db, 'gone', async () => (loads++, null))).toBeNull();
    expect(await cache.get(db, 'gone', async () => (loads++, null))).toBeNull();
    expect(loads).toBe(2);
    const racing = await cache.get(db, 'k', async () => {
      authorizationChanged();
      return { n: 1 };
    });
    expect(racing).toEqual({ n: 1 });
    expect(await cache.get(db, 'k', async () => ({ n: 2 }))).toEqual({ n: 2 });
  });

  it('reads afresh inside a transaction', async () => {
    const cache = createAuthorizationCache<{ n: number }>(10);
    const transaction = {};
    const source = counting();
    expect(await cache.get(transaction, 'k', source.load)).toEqual({ n: 1 });
    expect(await cache.get(transaction, 'k', source.load)).toEqual({ n: 2 });
  });

  it('marks the caches stale again when a transaction that changed something ends', async () => {
    const cache = createAuthorizationCache<{ n: number }>(10);
    const db = database();
    const result = await afterAuthorizationWrites(async () => {
      authorizationChanged();
      // Read while the transaction runs: the change is not visible yet.
      return cache.get(db, 'k', async () => ({ n: 1 }));
    });
    expect(result).toEqual({ n: 1 });
    expect(await cache.get(db, 'k', async () => ({ n: 2 }))).toEqual({ n: 2 });
    // A transaction that changed nothing leaves the cache as it is.
    await afterAuthorizationWrites(async () => undefined);
    expect(await cache.get(db, 'k', async () => ({ n: 3 }))).toEqual({ n: 2 });
  });
});

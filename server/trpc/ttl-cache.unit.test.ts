import { afterEach, describe, expect, it, vi } from 'vitest';
import { InFlight, TtlCache, sessionKey } from './ttl-cache';

afterEach(() => {
  vi.useRealTimers();
});

describe('TtlCache', () => {
  it('forgets entries after the time to live', () => {
    vi.useFakeTimers();
    const cache = new TtlCache<number>(1_000);
    cache.set('a', 1);
    vi.advanceTimersByTime(999);
    expect(cache.get('a')).toBe(1);
    vi.advanceTimersByTime(1);
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the oldest entry past its size bound, and deletes by prefix', () => {
    const cache = new TtlCache<number>(60_000, 2);
    cache.set('s1|project|a', 1);
    cache.set('s1|project|b', 2);
    cache.set('s2|project|a', 3);
    expect(cache.get('s1|project|a')).toBeUndefined();
    cache.deletePrefix('s1|');
    expect(cache.size).toBe(1);
    expect(cache.get('s2|project|a')).toBe(3);
  });
});

describe('sessionKey', () => {
  it('depends only on the session cookies, whatever their order or the other cookies', () => {
    const key = sessionKey('ory_kratos_session=abc; ory_session_x=1');
    expect(key).toBeDefined();
    expect(key).not.toContain('abc');
    expect(sessionKey('theme=dark; ory_session_x=1; ory_kratos_session=abc')).toBe(key);
    expect(sessionKey('ory_kratos_session=abd')).not.toBe(key);
    expect(sessionKey('theme=dark')).toBeUndefined();
  });
});

describe('InFlight', () => {
  it('shares one pending answer between callers of the same key, and asks again once it has settled', async () => {
    const flights = new InFlight();
    let asked = 0;
    let answer: (value: number) => void = () => {};
    const ask = () => {
      asked++;
      return new Promise<number>((resolve) => (answer = resolve));
    };
    const first = flights.run('s1|a', ask);
    const second = flights.run('s1|a', ask);
    const other = flights.run('s2|a', () => Promise.resolve(7));
    expect(asked).toBe(1);
    answer(42);
    expect(await Promise.all([first, second, other])).toEqual([42, 42, 7]);
    expect(flights.size).toBe(0);
    void flights.run('s1|a', ask);
    expect(asked).toBe(2);
  });

  it('lets a failure reach every waiting caller and forgets it; disabled or keyless, it always asks', async () => {
    const flights = new InFlight();
    const failing = flights.run('k', () => Promise.reject(new Error('down')));
    const joined = flights.run('k', () => Promise.resolve('never asked'));
    await expect(failing).rejects.toThrow('down');
    await expect(joined).rejects.toThrow('down');
    expect(flights.size).toBe(0);
    let asked = 0;
    const ask = () => Promise.resolve(++asked);
    const off = new InFlight(false);
    await Promise.all([off.run('k', ask), off.run('k', ask), flights.run(undefined, ask), flights.run(undefined, ask)]);
    expect(asked).toBe(4);
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { TtlCache, sessionKey } from './ttl-cache';

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

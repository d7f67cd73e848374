import { describe, expect, it } from 'vitest';
import { ANALYTICS_EVENTS, analyticsEnabled, clampFlushInterval, clampSessionIdleTimeout, takeEvents, type EventBucket } from './analytics';

describe('clampFlushInterval', () => {
  it.each([
    [undefined, 3000],
    [null, 3000],
    [Number.NaN, 3000],
    [0, 250],
    [-1, 250],
    [249, 250],
    [250, 250],
    [251, 251],
    [3000, 3000],
    [4999, 4999],
    [5000, 5000],
    [5001, 5000],
    [Number.POSITIVE_INFINITY, 5000],
    [Number.NEGATIVE_INFINITY, 250],
  ])('%j → %d ms', (value, expected) => {
    expect(clampFlushInterval(value)).toBe(expected);
  });

  it('defaults with no argument', () => {
    expect(clampFlushInterval()).toBe(3000);
  });
});

describe('clampSessionIdleTimeout', () => {
  it.each([
    [undefined, 1800],
    [null, 1800],
    [Number.NaN, 1800],
    [0, 60],
    [59, 60],
    [60, 60],
    [61, 61],
    [1800, 1800],
    [35_999, 35_999],
    [36_000, 36_000],
    [36_001, 36_000],
  ])('%j → %d s', (value, expected) => {
    expect(clampSessionIdleTimeout(value)).toBe(expected);
  });

  it('defaults with no argument', () => {
    expect(clampSessionIdleTimeout()).toBe(1800);
  });
});

describe('analytics events', () => {
  it('are the five tracked events', () => {
    expect(Object.values(ANALYTICS_EVENTS)).toEqual([
      'project created',
      'project switched',
      'workspace created',
      'pricing plan changed',
      'member invite created',
    ]);
  });

  it.each([
    [true, false, true],
    [false, true, true],
    [true, true, true],
    [false, false, false],
  ])('consented %s, local stack %s → enabled %s', (consented, localStack, expected) => {
    expect(analyticsEnabled({ consented, localStack })).toBe(expected);
  });
});

describe('takeEvents (spec §9: 10 events a second, burst 100)', () => {
  it('lets a burst of 100 through at once, then refuses the next event until a tenth of a second has passed', () => {
    let bucket: EventBucket | undefined;
    for (let i = 0; i < 100; i++) {
      const taken = takeEvents(bucket, 1, 0);
      expect(taken.allowed).toBe(true);
      bucket = taken.bucket;
    }
    const refused = takeEvents(bucket, 1, 0);
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 100 });
    expect(takeEvents(refused.bucket, 1, 99).allowed).toBe(false);
    expect(takeEvents(refused.bucket, 1, 100).allowed).toBe(true);
  });

  it('takes a batch whole or not at all, refills to the burst and no further', () => {
    const first = takeEvents(undefined, 60, 0);
    const second = takeEvents(first.bucket, 60, 0);
    expect(second).toMatchObject({ allowed: false, bucket: { tokens: 40 }, retryAfterMs: 2_000 });
    expect(takeEvents(second.bucket, 60, 2_000).allowed).toBe(true);
    expect(takeEvents(first.bucket, 100, 3_600_000).allowed).toBe(true);
    expect(takeEvents(first.bucket, 101, 3_600_000)).toMatchObject({ allowed: false, retryAfterMs: Number.POSITIVE_INFINITY });
  });
});

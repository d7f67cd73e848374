import { describe, expect, it } from 'vitest';
import { createEventQueue, createSessionTracker, retryDelay, type QueueClock, type SendOutcome } from './analytics-queue';

/** A clock tests move by hand: timers fire when time passes them. */
function fakeClock(start = 1_000_000) {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: QueueClock = {
    now: () => now,
    setTimeout: (fn, ms) => {
      seq += 1;
      timers.set(seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout: (h) => void timers.delete(h as number),
  };
  return {
    clock,
    async advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const next = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].fn();
        // Let the send's promise settle before the next timer.
        for (let i = 0; i < 5; i++) await Promise.resolve();
      }
      now = until;
    },
    pendingTimers: () => [...timers.values()].map((t) => t.at - now),
  };
}

function recorder(outcomes: SendOutcome[] = []) {
  const batches: number[][] = [];
  return {
    batches,
    send: async (batch: number[]) => {
      batches.push(batch);
      return outcomes.shift() ?? 'ok';
    },
  };
}

describe('analytics queue (spec §9 limits)', () => {
  it('flushes every 3000 ms by default, and clamps the interval to 250–5000 ms', async () => {
    for (const [asked, expected] of [
      [undefined, 3000],
      [100, 250],
      [10_000, 5000],
    ] as const) {
      const t = fakeClock();
      const r = recorder();
      const q = createEventQueue({ clock: t.clock, send: r.send, flushIntervalMs: asked });
      q.enqueue(1);
      await t.advance(expected - 1);
      expect(r.batches).toEqual([]);
      await t.advance(1);
      expect(r.batches).toEqual([[1]]);
    }
  });

  it('lets a burst of 100 through, then 10 events a second', async () => {
    const t = fakeClock();
    const drops: string[] = [];
    const q = createEventQueue({ clock: t.clock, send: recorder().send, onDrop: (reason) => drops.push(reason) });
    const accepted = Array.from({ length: 120 }, (_, i) => q.enqueue(i)).filter(Boolean).length;
    expect(accepted).toBe(100);
    expect(drops).toHaveLength(20);
    expect(new Set(drops)).toEqual(new Set(['rate_limited']));
    await t.advance(1000);
    expect(Array.from({ length: 15 }, (_, i) => q.enqueue(i)).filter(Boolean).length).toBe(10);
  });

  it('sends nothing for 60 s after the server answers with its quota, dropping what waits', async () => {
    const t = fakeClock();
    const r = recorder(['quota']);
    const q = createEventQueue({ clock: t.clock, send: r.send });
    q.enqueue(1);
    await t.advance(3000);
    expect(r.batches).toEqual([[1]]);
    expect(q.pausedUntil()).toBe(t.clock.now() + 60_000);
    expect(q.enqueue(2)).toBe(false);
    await t.advance(59_999);
    expect(q.enqueue(3)).toBe(false);
    await t.advance(1);
    expect(q.pausedUntil()).toBeNull();
    expect(q.enqueue(4)).toBe(true);
    await t.advance(3000);
    expect(r.batches).toEqual([[1], [4]]);
  });

  it('retries a failed send up to 10 times with exponential backoff capped at 30 minutes, then drops it', async () => {
    expect([0, 1, 2, 9, 10, 20].map((a) => retryDelay(a, 3000))).toEqual([3000, 6000, 12000, 1_536_000, 1_800_000, 1_800_000]);
    const t = fakeClock();
    const r = recorder(Array(11).fill('retry'));
    const drops: string[] = [];
    const q = createEventQueue({ clock: t.clock, send: r.send, onDrop: (reason, n) => drops.push(`${reason}:${n}`) });
    q.enqueue(7);
    await t.advance(3000);
    expect(r.batches).toHaveLength(1);
    // The retries come after 3 s, 6 s, 12 s, … each capped at 30 min.
    for (let attempt = 0; attempt < 10; attempt++) {
      const delay = retryDelay(attempt, 3000);
      await t.advance(delay - 1);
      expect(r.batches).toHaveLength(attempt + 1);
      await t.advance(1);
      expect(r.batches).toHaveLength(attempt + 2);
    }
    expect(drops).toEqual(['retries_exhausted:1']);
    expect(q.pending()).toBe(0);
  });

  it('keeps the order and the events of a batch that failed once', async () => {
    const t = fakeClock();
    const r = recorder(['retry']);
    const q = createEventQueue({ clock: t.clock, send: r.send });
    q.enqueue(1);
    q.enqueue(2);
    await t.advance(3000);
    q.enqueue(3);
    await t.advance(3000);
    expect(r.batches).toEqual([
      [1, 2],
      [1, 2, 3],
    ]);
  });
});

describe('analytics sessions', () => {
  it('starts a new session after the idle timeout (default 1800 s, clamped 60–36000 s) and after 24 hours', () => {
    let now = 0;
    let n = 0;
    const tracker = (idle?: number) => createSessionTracker({ clock: { now: () => now }, idleTimeoutS: idle ?? null, newId: () => `s${++n}` });
    const s = tracker();
    expect(s.touch()).toBe('s1');
    now += 1_800_000;
    expect(s.touch()).toBe('s1');
    now += 1_800_001;
    expect(s.touch()).toBe('s2');

    const short = tracker(1);
    const first = short.touch();
    now += 59_000;
    expect(short.touch()).toBe(first);
    now += 61_000;
    expect(short.touch()).not.toBe(first);

    const busy = tracker();
    const day = busy.touch();
    for (let i = 0; i < 24 * 60; i++) {
      now += 60_000;
      if (i < 24 * 60 - 1) expect(busy.touch()).toBe(day);
    }
    expect(busy.touch()).not.toBe(day);
  });
});

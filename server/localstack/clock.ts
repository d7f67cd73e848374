/**
 * The local stack's billing clock: real time plus an offset a developer or a test can move forward
 * (`PUT /local/clock`), so that billing periods can pass without waiting for them. Only what billing measures
 * reads it (plan changes, daily active users, invoices); sessions, codes and flows keep real time.
 */
export interface Clock {
  now(): Date;
  /** Moves the clock forward by `ms` (never back: periods already measured stay as they were). */
  advance(ms: number): void;
}

export function createClock(start: () => number = Date.now): Clock {
  let offset = 0;
  return {
    now: () => new Date(start() + offset),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('The clock only moves forward.');
      offset += ms;
    },
  };
}

/**
 * The local stack's clock: real time plus an offset a developer or a test can move forward
 * (`PUT /local/clock`, or `LocalStack.clock.advance` in a test), so that periods can pass without waiting for
 * them. Sessions (the console's and every project's), self-service flows and codes, invites, API keys, the
 * courier, the billing portal and billing (plan changes, seats in use, daily active users, invoices) read it
 * through `ctx.clock.now()` and compare with it in SQL. One clock for the whole stack: a developer's jump
 * (`PUT /local/clock`) carries the sessions working at that moment along, so no one is signed out by it;
 * `advance` alone lets time pass for everything, sessions included (docs/design.md §2).
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

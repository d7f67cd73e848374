/**
 * The local stack's clock: real time plus an offset a developer or a test can move forward
 * (`PUT /local/clock`, or `LocalStack.clock.advance` in a test), so that periods can pass without waiting for
 * them. Self-service flows and codes, invites, API keys, the courier, the billing portal and billing (plan
 * changes, seats in use, daily active users, invoices) read it through `ctx.clock.now()` and compare with it
 * in SQL. Sessions do not yet:
 * moving the clock a month (`PUT /local/clock`, the billing journeys) would sign out every browser on the
 * stack, the console's own included, so they wait for a clock a test can move per tenant.
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

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { LocalStackContext } from '../kernel/context';
import type { Queryable } from '../db/types';
import { forbidden, notFound } from '../kernel/errors';
import { findProjectByRef } from '../kernel/records';
import { assertLoopback } from '../kernel/http';
import { route } from '../kernel/route';
import { meter } from './usage';

const DAY_MS = 86_400_000;

const clockBody = z.object({
  advance_days: z.number({ error: 'must be a number of days' }).int({ error: 'must be a whole number' }).min(0).max(3660).optional(),
  advance_ms: z.number({ error: 'must be a number of milliseconds' }).int({ error: 'must be a whole number' }).min(0).max(3660 * DAY_MS).optional(),
});
const usageBody = z.object({
  project_id: z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase()),
  metric: z.enum(['permission_checks'], { error: 'must be permission_checks' }),
  count: z.number().int().min(1).max(1_000_000_000),
});

function loopbackOnly(req: Parameters<typeof assertLoopback>[0], what: string) {
  try {
    assertLoopback(req);
  } catch {
    throw forbidden(`${what} only by clients on this machine.`);
  }
}

/** What else moves with a developer's jump in time (the sessions working at the move), given the clock's time before it. */
export type ClockMoveHook = (q: Queryable, before: Date, ms: number) => Promise<void>;

/**
 * Developer tools of billing, served with the local mailbox to loopback clients only:
 * - `PUT /local/clock {advance_days | advance_ms}` moves the stack's clock forward, so that a developer or a
 *   test can see periods close and invoices appear without waiting a month; answers the clock's time.
 *   `carry` moves along what a jump must not end (the sessions working at the move: no one is signed out);
 * - `POST /local/usage {project_id, metric: permission_checks, count}` meters permission checks for a project
 *   on the clock's day, as the permissions data plane will when it serves checks.
 */
export function registerBillingDevRoutes(scope: FastifyInstance, ctx: LocalStackContext, carry: ClockMoveHook): void {
  route(scope, ctx, {
    method: 'PUT',
    url: '/local/clock',
    body: clockBody,
    auth: 'public',
    handler: async ({ q, req, body }) => {
      loopbackOnly(req, 'The clock can be moved');
      const ms = (body.advance_days ?? 0) * DAY_MS + (body.advance_ms ?? 0);
      await carry(q, ctx.clock.now(), ms);
      ctx.clock.advance(ms);
      return { now: ctx.clock.now().toISOString() };
    },
  });
  route(scope, ctx, {
    method: 'POST',
    url: '/local/usage',
    body: usageBody,
    auth: 'public',
    status: 204,
    handler: async ({ q, req, body }) => {
      loopbackOnly(req, 'Usage can be recorded');
      if (!(await findProjectByRef(q, body.project_id))) throw notFound(`Project ${body.project_id} does not exist.`);
      await meter(q, ctx.clock, body.project_id, body.metric, body.count);
    },
  });
}

import { randomUUID } from 'node:crypto';
import { and, desc, eq, lt, lte, or, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { clampFlushInterval, clampSessionIdleTimeout } from '../../shared/domain/analytics';
import { capStrings, ingestBatchSchema } from '../../shared/schemas/ingest';
import type { LocalStackContext } from '../kernel/context';
import type { Queryable } from '../db/types';
import { forbidden } from '../kernel/errors';
import { assertLoopback } from '../courier/service';
import { route } from '../kernel/route';
import { analyticsEvents } from './schema';

/*
 * The analytics upstream of the local stack: it stores what the console's /ingest forwards and serves
 * surveys (none), web experiments (none) and remote config (the spec's defaults). Developer tools, on
 * loopback only: read the events back, make the ingest answer with its quota to see the client pause, and
 * change how much is kept.
 */

/**
 * What the local stack keeps of its one analytics project (the console's own): events received in the
 * last 7 days, and of those the newest 10,000. Enough to read a week of a developer's clicking back; at the
 * §9 rate of 10 events a second a session fills it in under 17 minutes, so nothing grows without bound.
 * Applied with every batch stored (by the received time, on the stack's clock).
 */
export const ANALYTICS_RETENTION = { maxAgeMs: 7 * 24 * 60 * 60 * 1000, maxEvents: 10_000 } as const;

export interface AnalyticsRetention {
  maxAgeMs: number;
  maxEvents: number;
}

const retentionBody = z.object({
  max_age_ms: z.number({ error: 'max_age_ms: must be a number of milliseconds' }).int().min(1).max(ANALYTICS_RETENTION.maxAgeMs).optional(),
  max_events: z.number({ error: 'max_events: must be a number of events' }).int().min(1).max(ANALYTICS_RETENTION.maxEvents).optional(),
});

/** Drops events received before `now - maxAgeMs`, then all but the newest `maxEvents`. */
async function applyRetention(q: Queryable, retention: AnalyticsRetention, now: Date): Promise<void> {
  await q.orm.delete(analyticsEvents).where(lt(analyticsEvents.received_at, new Date(now.getTime() - retention.maxAgeMs)));
  const [edge] = await q.orm
    .select({ received_at: analyticsEvents.received_at, id: analyticsEvents.id })
    .from(analyticsEvents)
    .orderBy(desc(analyticsEvents.received_at), desc(analyticsEvents.id))
    .offset(retention.maxEvents)
    .limit(1);
  if (!edge) return;
  await q.orm
    .delete(analyticsEvents)
    .where(or(lt(analyticsEvents.received_at, edge.received_at), and(eq(analyticsEvents.received_at, edge.received_at), lte(analyticsEvents.id, edge.id))));
}

const eventsQuery = z.object({
  event: z.string().max(200).optional(),
  distinct_id: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(200),
});

export function registerAnalyticsRoutes(scope: FastifyInstance, ctx: LocalStackContext, opts: { devTools: boolean }): void {
  let quotaLimited = false;
  let retention: AnalyticsRetention = { ...ANALYTICS_RETENTION };

  route(scope, ctx, {
    method: 'POST',
    url: '/ingest/batch',
    body: ingestBatchSchema,
    auth: 'public',
    handler: async ({ q, body, reply }) => {
      if (quotaLimited) return reply.code(429).send({ type: 'quota_limited', quota_limited: true, reason: 'This project is over its analytics quota.' });
      const receivedAt = ctx.clock.now();
      await q.orm.insert(analyticsEvents).values(
        body.batch.map((e) => {
          const properties = capStrings(e.properties) as Record<string, unknown>;
          return {
            id: randomUUID(),
            received_at: receivedAt,
            event: e.event,
            distinct_id: e.distinct_id ?? null,
            session_id: typeof properties.$session_id === 'string' ? properties.$session_id : null,
            occurred_at: new Date(e.timestamp),
            properties,
          };
        }),
      );
      await applyRetention(q, retention, receivedAt);
      return { status: 1 };
    },
  });

  route(scope, ctx, { method: 'GET', url: '/ingest/surveys', auth: 'public', handler: async () => ({ surveys: [] }) });
  route(scope, ctx, { method: 'GET', url: '/ingest/web_experiments', auth: 'public', handler: async () => ({ web_experiments: [] }) });
  route(scope, ctx, {
    method: 'GET',
    url: '/ingest/remote_config',
    auth: 'public',
    handler: async () => ({ flush_interval_ms: clampFlushInterval(null), session_idle_timeout_s: clampSessionIdleTimeout(null) }),
  });

  if (!opts.devTools) return;
  const loopback = (req: Parameters<typeof assertLoopback>[0]) => {
    try {
      assertLoopback(req);
    } catch {
      throw forbidden('Analytics can be read back only by clients on this machine.');
    }
  };

  route(scope, ctx, {
    method: 'GET',
    url: '/local/analytics/events',
    query: eventsQuery,
    auth: 'public',
    handler: async ({ q, req, query }) => {
      loopback(req);
      const where: SQL[] = [];
      if (query.event) where.push(eq(analyticsEvents.event, query.event));
      if (query.distinct_id) where.push(eq(analyticsEvents.distinct_id, query.distinct_id));
      const rows = await q.orm
        .select()
        .from(analyticsEvents)
        .where(where.length ? and(...where) : undefined)
        .orderBy(desc(analyticsEvents.received_at), desc(analyticsEvents.id))
        .limit(query.limit);
      return rows.map((r) => ({ event: r.event, distinct_id: r.distinct_id, session_id: r.session_id, timestamp: r.occurred_at.toISOString(), properties: r.properties }));
    },
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/local/analytics/quota',
    body: z.object({ limited: z.boolean({ error: 'limited: must be true or false' }) }),
    auth: 'public',
    status: 204,
    handler: async ({ req, body }) => {
      loopback(req);
      quotaLimited = body.limited;
    },
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/local/analytics/retention',
    body: retentionBody,
    auth: 'public',
    handler: async ({ req, body }) => {
      loopback(req);
      retention = { maxAgeMs: body.max_age_ms ?? ANALYTICS_RETENTION.maxAgeMs, maxEvents: body.max_events ?? ANALYTICS_RETENTION.maxEvents };
      return { max_age_ms: retention.maxAgeMs, max_events: retention.maxEvents };
    },
  });
}

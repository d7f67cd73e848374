import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { planLimit } from '../../shared/domain/plan-quotas';
import { EVENT_ATTRIBUTES, EVENT_TYPE_NAMES, bucketStarts, bucketStart, metricsWindowStart, parseResolution, MAX_BUCKETS } from '../../shared/domain/metrics';
import {
  attributesCountSchema,
  eventNamesSchema,
  metricsAttributesQuery,
  metricsRangeQuery,
  metricsSeriesQuery,
  metricsSeriesSchema,
  projectEventsBody,
  projectEventsSchema,
  sessionActivitySchema,
  activeUsersSchema,
} from '../../shared/schemas/metrics';
import { planInForce } from '../billing/quota';
import type { Queryable } from '../db/types';
import { badRequest } from '../kernel/errors';
import { encodePageToken, readPageToken } from '../kernel/page-token';
import { route, type RouteContext } from '../kernel/route';
import type { ProjectRow } from '../project/schema';
import { EVENT_QUERY_TIMEOUT_MS, patternProblem, withStatementTimeout } from './bounded';
import { activeSessionCount, activeUsersByDay, countByAttribute, countByBucket, listEvents, sessionActivity } from './store';

const projectParams = z.object({ project: z.string().regex(/^[A-Za-z0-9-]{1,100}$/, { error: "must be the project's ID or slug" }) });

/**
 * The range a query may read: [from, to) with `from` moved up to the start of the plan's metrics window
 * (`project_metrics_time_window`, days), so nothing older than the plan keeps is ever counted.
 */
async function windowed(q: Queryable, project: ProjectRow, now: Date, from: string, to: string): Promise<{ from: Date; to: Date }> {
  const limit = planLimit(await planInForce(q, { kind: 'project', project }), 'project_metrics_time_window');
  let start = new Date(from);
  if (typeof limit === 'number') {
    const earliest = metricsWindowStart(now, limit);
    if (start < earliest) start = earliest;
  }
  const end = new Date(to);
  return { from: start, to: end < start ? start : end };
}

/** The metrics calls of the control plane (spec §7 "Metrics"), counted from the project's recorded events. */
export function registerMetricsRoutes(scope: FastifyInstance, ctx: RouteContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project/metrics',
    params: projectParams,
    query: metricsSeriesQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: metricsSeriesSchema,
    handler: async ({ q, project, query }) => {
      const resolution = parseResolution(query.resolution)!;
      const { from, to } = await windowed(q, project, ctx.clock.now(), query.from, query.to);
      const starts = bucketStarts(from, to, resolution);
      if (!starts) throw badRequest(`The resolution ${query.resolution} makes more than ${MAX_BUCKETS} buckets over this range; choose a coarser resolution or a shorter range.`);
      const counts = new Map<number, number>();
      for (const row of await countByBucket(q, project.id, query.event_type, from, to, resolution)) {
        const time =
          resolution.unit === 'M' || resolution.unit === 'y'
            ? bucketStart(new Date(Date.UTC(Math.floor(row.key / 12), row.key % 12, 1)), resolution).getTime()
            : bucketStart(new Date(row.key * stepMs(resolution.unit, resolution.n)), resolution).getTime();
        counts.set(time, (counts.get(time) ?? 0) + row.n);
      }
      return { data: starts.map((s) => ({ time: s.toISOString(), count: counts.get(s.getTime()) ?? 0 })) };
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project/metrics/attributes',
    params: projectParams,
    query: metricsAttributesQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: attributesCountSchema,
    handler: async ({ q, project, query }) => {
      const { from, to } = await windowed(q, project, ctx.clock.now(), query.from, query.to);
      return { data: await countByAttribute(q, project.id, query.attribute, from, to, query.event_type) };
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project/metrics/event_types',
    params: projectParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: eventNamesSchema,
    handler: async () => ({ events: [...EVENT_TYPE_NAMES] }),
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project/metrics/event_attributes',
    params: projectParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: eventNamesSchema,
    handler: async () => ({ events: [...EVENT_ATTRIBUTES] }),
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project/metrics/sessions',
    params: projectParams,
    query: metricsRangeQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: sessionActivitySchema,
    handler: async ({ q, project, query }) => {
      const { from, to } = await windowed(q, project, ctx.clock.now(), query.from, query.to);
      return { data: await sessionActivity(q, project.id, from, to) };
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project/metrics/active_users',
    params: projectParams,
    query: metricsRangeQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: activeUsersSchema,
    handler: async ({ q, project, query }) => {
      const now = ctx.clock.now();
      const { from, to } = await windowed(q, project, now, query.from, query.to);
      const days = bucketStarts(from, to, parseResolution('1d')!);
      if (!days) throw badRequest(`The range makes more than ${MAX_BUCKETS} days; choose a shorter range.`);
      const counts = await activeUsersByDay(q, project.id, from, to);
      return {
        data: days.map((d) => ({ time: d.toISOString(), count: counts.get(d.getTime()) ?? 0 })),
        active_sessions: await activeSessionCount(q, project.id, now),
      };
    },
  });

  // A read with a body (filters): POST, but no write, so the handler changes nothing.
  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project/metrics/events',
    params: projectParams,
    body: projectEventsBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: projectEventsSchema,
    handler: async ({ q, project, body }) => {
      const cursor = readPageToken(body.page_token, true);
      if (cursor === 'invalid') throw badRequest('The page_token is invalid; pass the page_token of a previous answer.');
      for (const f of body.filters ?? []) {
        const problem = f.condition === 'regex' || f.condition === 'not_regex' ? patternProblem(f.value ?? '') : null;
        if (problem) throw badRequest(`The regex filter on ${f.attribute} ${problem}; simplify it.`);
      }
      const { from, to } = await windowed(q, project, ctx.clock.now(), body.from, body.to);
      const limit = body.page_size ?? 25;
      const rows = await withStatementTimeout(q, EVENT_QUERY_TIMEOUT_MS, () =>
        listEvents(q, project.id, {
          from,
          to,
          type: body.event_name,
          filters: body.filters ?? [],
          cursor: cursor ? { at: new Date(cursor.createdAt!), id: cursor.id } : null,
          limit,
        }),
      );
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        events: page.map((r) => ({
          name: r.type,
          timestamp: r.occurred_at.toISOString(),
          attributes: Object.entries(r.attributes).map(([key, value]) => ({ key, value: String(value) })),
        })),
        ...(rows.length > limit && last ? { page_token: encodePageToken({ id: last.id, createdAt: last.occurred_at.toISOString() }) } : {}),
      };
    },
  });
}

const stepMs = (unit: 'm' | 'h' | 'd' | 'M' | 'y', n: number) => n * (unit === 'm' ? 60_000 : unit === 'h' ? 3_600_000 : 86_400_000);

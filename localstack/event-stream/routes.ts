import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  createEventStreamBody,
  createdEventStreamSchema,
  deliveryAttemptSchema,
  deliveryLogQuery,
  deliveryLogSchema,
  eventStreamListSchema,
  eventStreamSchema,
  replayAnswerSchema,
  setEventStreamBody,
} from '../../shared/schemas/event-streams';
import { assertRoomFor } from '../billing/quota';
import { locate, systemLookup } from '../courier/network';
import type { LocalStackContext } from '../kernel/context';
import { badRequest, notFound } from '../kernel/errors';
import { encodePageToken, readPageToken } from '../kernel/page-token';
import { route } from '../kernel/route';
import type { ProjectRow } from '../project/schema';
import type { Queryable } from '../db/types';
import { recordAttempt, sendOnce } from './delivery';
import { eventStreamDeliveries, eventStreams, type EventStreamRow } from './schema';
import { newStreamSecret } from './signature';
import { findStream, listAttempts, listStreams, type AttemptWithDelivery } from './store';

const pathUuid = z.uuid({ error: 'must be a UUID' }).transform((id) => id.toLowerCase());
const projectParams = z.object({ project_id: pathUuid });
const streamParams = z.object({ project_id: pathUuid, event_stream_id: pathUuid });
const deliveryParams = z.object({ project_id: pathUuid, event_stream_id: pathUuid, delivery_id: pathUuid });

/** The wire's eventStream; a password in the endpoint's URL is never shown again. */
export function eventStreamView(row: EventStreamRow): z.infer<typeof eventStreamSchema> {
  let endpoint = row.https_endpoint ?? undefined;
  if (endpoint) {
    const url = new URL(endpoint);
    if (url.password) url.password = 'REDACTED';
    endpoint = url.toString();
  }
  return {
    id: row.id,
    type: row.type,
    status: row.status,
    ...(endpoint ? { https_endpoint: endpoint } : {}),
    ...(row.topic_arn ? { topic_arn: row.topic_arn } : {}),
    ...(row.role_arn ? { role_arn: row.role_arn } : {}),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const attemptView = (a: AttemptWithDelivery): z.infer<typeof deliveryAttemptSchema> => ({
  id: a.id,
  delivery_id: a.delivery_id,
  event_type: a.event_type,
  attempt: a.attempt,
  status: a.status,
  response_code: a.response_code,
  latency_ms: a.latency_ms,
  error: a.error,
  at: a.at.toISOString(),
  delivery_status: a.delivery_status,
});

/** An https endpoint must be on this machine (as the courier's servers): the local stack sends nothing beyond it. */
async function assertReachable(endpoint: string): Promise<void> {
  const host = new URL(endpoint).hostname.replace(/^\[|\]$/g, '');
  const located = await locate(host, systemLookup).catch(() => null);
  if (!located) throw badRequest(`The endpoint's host ${host} does not resolve.`, { field: 'https_endpoint' });
  if (located.where !== 'loopback') {
    throw badRequest('The local stack sends events only to endpoints on this machine (localhost, 127.0.0.1 or ::1); on Ory Network any https endpoint works.', { field: 'https_endpoint' });
  }
}

async function streamOf(q: Queryable, project: ProjectRow, id: string): Promise<EventStreamRow> {
  const row = await findStream(q, project.id, id);
  if (!row) throw notFound(`No event stream ${id} exists in project ${project.id}.`);
  return row;
}

/**
 * Event streams (spec §7; CONTRACT.md EventsApi): list, create, set and delete, as Ory serves them (no GET
 * of one stream), and the local stack's own delivery log, replay and test send.
 */
export function registerEventStreamRoutes(scope: FastifyInstance, ctx: LocalStackContext): void {
  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id/eventstreams',
    params: projectParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: eventStreamListSchema,
    handler: async ({ q, project }) => ({ event_streams: (await listStreams(q, project.id)).map(eventStreamView) }),
  });

  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project_id/eventstreams',
    params: projectParams,
    body: createEventStreamBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 201,
    response: createdEventStreamSchema,
    handler: async ({ q, project, body }) => {
      const now = ctx.clock.now();
      await assertRoomFor(q, { kind: 'project', project }, 'event_streams', 'event streams', now);
      if (body.type === 'https') await assertReachable(body.https_endpoint!);
      const [row] = await q.orm
        .insert(eventStreams)
        .values({
          id: randomUUID(),
          project_id: project.id,
          type: body.type,
          status: body.status ?? 'active',
          https_endpoint: body.type === 'https' ? body.https_endpoint! : null,
          topic_arn: body.type === 'sns' ? body.topic_arn! : null,
          role_arn: body.type === 'sns' ? body.role_arn! : null,
          secret: newStreamSecret(),
          created_at: now,
          updated_at: now,
        })
        .returning();
      return { ...eventStreamView(row!), secret: row!.secret };
    },
  });

  route(scope, ctx, {
    method: 'PUT',
    url: '/projects/:project_id/eventstreams/:event_stream_id',
    params: streamParams,
    body: setEventStreamBody,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    response: eventStreamSchema,
    handler: async ({ q, project, params, body }) => {
      const row = await streamOf(q, project, params.event_stream_id);
      // Omitted fields keep their value; a change of type takes that type's destination from the body.
      const type = body.type ?? row.type;
      const next = {
        type,
        status: body.status ?? row.status,
        https_endpoint: type === 'https' ? (body.https_endpoint ?? (row.type === 'https' ? row.https_endpoint : null)) : null,
        topic_arn: type === 'sns' ? (body.topic_arn ?? (row.type === 'sns' ? row.topic_arn : null)) : null,
        role_arn: type === 'sns' ? (body.role_arn ?? (row.type === 'sns' ? row.role_arn : null)) : null,
      };
      if (type === 'https' && !next.https_endpoint) throw badRequest('An https stream needs the endpoint to send events to.', { field: 'https_endpoint' });
      if (type === 'sns' && (!next.topic_arn || !next.role_arn)) throw badRequest('An sns stream needs the SNS topic ARN and the IAM role ARN.', { field: next.topic_arn ? 'role_arn' : 'topic_arn' });
      if (type === 'https' && body.https_endpoint) await assertReachable(body.https_endpoint);
      const [updated] = await q.orm
        .update(eventStreams)
        .set({ ...next, updated_at: ctx.clock.now() })
        .where(eq(eventStreams.id, row.id))
        .returning();
      return eventStreamView(updated!);
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/projects/:project_id/eventstreams/:event_stream_id',
    params: streamParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 204,
    handler: async ({ q, project, params }) => {
      const row = await streamOf(q, project, params.event_stream_id);
      await q.orm.delete(eventStreams).where(eq(eventStreams.id, row.id));
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/projects/:project_id/eventstreams/:event_stream_id/attempts',
    params: streamParams,
    query: deliveryLogQuery,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.read',
    response: deliveryLogSchema,
    handler: async ({ q, project, params, query }) => {
      const row = await streamOf(q, project, params.event_stream_id);
      const cursor = readPageToken(query.page_token, true);
      if (cursor === 'invalid') throw badRequest('The page_token is invalid; pass the next_page_token of a previous answer.');
      const limit = query.page_size ?? 25;
      const rows = await listAttempts(q, row.id, cursor ? { at: new Date(cursor.createdAt!), id: cursor.id } : null, limit);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        attempts: page.map(attemptView),
        ...(rows.length > limit && last ? { next_page_token: encodePageToken({ id: last.id, createdAt: last.at.toISOString() }) } : {}),
      };
    },
  });

  // Replay: the delivery's body once more, as a new delivery (the log keeps the old one's attempts).
  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project_id/eventstreams/:event_stream_id/deliveries/:delivery_id/replay',
    params: deliveryParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    status: 202,
    response: replayAnswerSchema,
    handler: async ({ q, project, params }) => {
      const row = await streamOf(q, project, params.event_stream_id);
      const [delivery] = await q.orm.select().from(eventStreamDeliveries).where(eq(eventStreamDeliveries.id, params.delivery_id));
      if (!delivery || delivery.stream_id !== row.id) throw notFound(`No delivery ${params.delivery_id} exists on event stream ${row.id}.`);
      if (row.type !== 'https') throw badRequest('Only https streams are delivered by the local stack; sns streams are delivered on Ory Network only.');
      const now = ctx.clock.now();
      const id = randomUUID();
      await q.orm.insert(eventStreamDeliveries).values({ ...delivery, id, status: 'pending', attempts: 0, next_attempt_at: now, created_at: now, updated_at: now });
      return { delivery_id: id };
    },
  });

  // A test event sent now, whatever the stream's status, and its attempt answered. Outside a transaction: the
  // POST may wait on the endpoint for up to 10 s, and a transaction held that long would hold a connection (on
  // PGlite, the only one) and the project's row, stalling every other request meanwhile.
  route(scope, ctx, {
    method: 'POST',
    url: '/projects/:project_id/eventstreams/:event_stream_id/test',
    params: streamParams,
    auth: 'session-or-workspace-key',
    permission: 'backoffice.project.write',
    transaction: false,
    response: deliveryAttemptSchema,
    handler: async ({ q, project, params }) => {
      const row = await streamOf(q, project, params.event_stream_id);
      if (row.type !== 'https') throw badRequest('sns streams are delivered on Ory Network only: the local stack cannot send a test event to them.');
      const now = ctx.clock.now();
      const id = randomUUID();
      const payload = { id, type: 'EventStreamTest', project_id: project.id, occurred_at: now.toISOString(), attributes: {} };
      const [delivery] = await q.orm
        .insert(eventStreamDeliveries)
        .values({ id, stream_id: row.id, event_id: null, event_type: 'EventStreamTest', payload, status: 'pending', attempts: 0, next_attempt_at: new Date(now.getTime() + 3_600_000), created_at: now, updated_at: now })
        .returning();
      const outcome = await sendOnce(row, delivery!, now);
      // A test is tried once: a failure is not retried.
      return attemptView(await recordAttempt(q, delivery!, outcome, now, true));
    },
  });
}

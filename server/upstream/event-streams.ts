import type { CreateEventStreamBody, SetEventStreamBody } from '@ory/client';
import type { z } from 'zod';
import {
  createdEventStreamSchema,
  deliveryAttemptSchema,
  deliveryLogSchema,
  eventStreamListSchema,
  eventStreamSchema,
  replayAnswerSchema,
} from '../../shared/schemas/event-streams';
import type { CallContext } from './backoffice';
import type { ControlPlaneSdk } from './control-plane-sdk';
import { path, type HttpMethod } from './http';

type Call = <T>(c: CallContext, method: HttpMethod, p: string, schema?: z.ZodType<T>, body?: unknown, query?: Record<string, string | number | undefined>) => Promise<T>;

/**
 * Spec §7 event streams: EventsApi's four methods through the SDK; the delivery log, replay and test send
 * are the local stack's own calls (no Ory API), through our own client.
 */
export function createEventStreamCalls(call: Call, sdk: ControlPlaneSdk) {
  const { events, send } = sdk;
  return {
    list: (c: CallContext, projectId: string) => send(c, 'listEventStreams', eventStreamListSchema, (o) => events.listEventStreams({ projectId }, o)),
    create: (c: CallContext, projectId: string, body: CreateEventStreamBody) =>
      send(c, 'createEventStream', createdEventStreamSchema, (o) => events.createEventStream({ projectId, createEventStreamBody: body }, o)),
    set: (c: CallContext, projectId: string, streamId: string, body: SetEventStreamBody) =>
      send(c, 'setEventStream', eventStreamSchema, (o) => events.setEventStream({ projectId, eventStreamId: streamId, setEventStreamBody: body }, o)),
    async remove(c: CallContext, projectId: string, streamId: string): Promise<void> {
      await send(c, 'deleteEventStream', undefined, (o) => events.deleteEventStream({ projectId, eventStreamId: streamId }, o));
    },
    attempts: (c: CallContext, projectId: string, streamId: string, pageToken?: string) =>
      call(c, 'GET', path`/projects/${projectId}/eventstreams/${streamId}/attempts`, deliveryLogSchema, undefined, { page_size: 25, page_token: pageToken }),
    replay: (c: CallContext, projectId: string, streamId: string, deliveryId: string) =>
      call(c, 'POST', path`/projects/${projectId}/eventstreams/${streamId}/deliveries/${deliveryId}/replay`, replayAnswerSchema),
    sendTest: (c: CallContext, projectId: string, streamId: string) => call(c, 'POST', path`/projects/${projectId}/eventstreams/${streamId}/test`, deliveryAttemptSchema),
  };
}

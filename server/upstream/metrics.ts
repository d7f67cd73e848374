import type { z } from 'zod';
import { assertRequiredParams } from '../../shared/domain/required-param';
import {
  attributesCountSchema,
  eventNamesSchema,
  metricsSeriesSchema,
  projectEventsSchema,
  sessionActivitySchema,
  activeUsersSchema,
  type AttributeFilterInput,
} from '../../shared/schemas/metrics';
import type { CallContext } from './backoffice';
import { path, type HttpMethod } from './http';

type Call = <T>(
  c: CallContext,
  method: HttpMethod,
  p: string,
  schema?: z.ZodType<T>,
  body?: unknown,
  query?: Record<string, string | number | undefined>,
) => Promise<T>;

type Range = { from: string; to: string };

/**
 * Spec §7 metrics calls. `@ory/client` 1.22 has no method for them (getProjectMetrics was in 1.11 only;
 * the rest are orphans, CONTRACT.md), so they go through our own client.
 */
export function createMetricsCalls(call: Call) {
  return {
    series(c: CallContext, projectId: string, q: Range & { eventType: string; resolution: string }) {
      assertRequiredParams('getProjectMetrics', { projectId, eventType: q.eventType, resolution: q.resolution, from: q.from, to: q.to });
      return call(c, 'GET', path`/projects/${projectId}/metrics`, metricsSeriesSchema, undefined, {
        event_type: q.eventType,
        resolution: q.resolution,
        from: q.from,
        to: q.to,
      });
    },
    attributes(c: CallContext, projectId: string, q: Range & { attribute: string; eventType?: string | undefined }) {
      assertRequiredParams('getAttributesCount', { projectId });
      return call(c, 'GET', path`/projects/${projectId}/metrics/attributes`, attributesCountSchema, undefined, {
        attribute: q.attribute,
        from: q.from,
        to: q.to,
        event_type: q.eventType,
      });
    },
    eventTypes(c: CallContext, projectId: string) {
      assertRequiredParams('getMetricsEventTypes', { projectId });
      return call(c, 'GET', path`/projects/${projectId}/metrics/event_types`, eventNamesSchema);
    },
    eventAttributes(c: CallContext, projectId: string) {
      assertRequiredParams('getMetricsEventAttributes', { projectId });
      return call(c, 'GET', path`/projects/${projectId}/metrics/event_attributes`, eventNamesSchema);
    },
    /** Daily active users from the project's events and the sessions active now (the local stack's own call). */
    activeUsers(c: CallContext, projectId: string, q: Range) {
      return call(c, 'GET', path`/projects/${projectId}/metrics/active_users`, activeUsersSchema, undefined, { from: q.from, to: q.to });
    },
    sessions(c: CallContext, projectId: string, q: Range) {
      assertRequiredParams('getSessionActivity', { projectId });
      return call(c, 'GET', path`/projects/${projectId}/metrics/sessions`, sessionActivitySchema, undefined, { from: q.from, to: q.to });
    },
    events(
      c: CallContext,
      projectId: string,
      q: Range & { eventName?: string | undefined; filters?: AttributeFilterInput[] | undefined; pageSize?: number | undefined; pageToken?: string | undefined },
    ) {
      assertRequiredParams('getProjectEvents', { projectId });
      return call(c, 'POST', path`/projects/${projectId}/metrics/events`, projectEventsSchema, {
        from: q.from,
        to: q.to,
        ...(q.eventName ? { event_name: q.eventName } : {}),
        ...(q.filters?.length ? { filters: q.filters } : {}),
        ...(q.pageSize ? { page_size: q.pageSize } : {}),
        ...(q.pageToken ? { page_token: q.pageToken } : {}),
      });
    },
  };
}

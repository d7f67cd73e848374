import { EventsApi, ProjectApi, WorkspaceApi } from '@ory/client';
import type { z } from 'zod';
import type { CallContext } from './backoffice';
import { UpstreamError } from './errors';
import { createSdkTransport, type SdkRequestOptions } from './sdk';

export type { SdkRequestOptions };

const UPSTREAM = 'backoffice';

/**
 * The control plane through `@ory/client` (ProjectApi, WorkspaceApi, EventsApi) with `basePath` always set, so no call
 * goes to the public cloud host. `send` makes the call through the one SDK transport (`sdk.ts`: session
 * cookie only, the request's deadline, a safe call sent again when its connection was closed under it, one
 * conversion of failures) and validates the answer against our schema.
 */
export function createControlPlaneSdk(options: { baseUrl: string; timeoutMs: number }) {
  if (!options.baseUrl) throw new Error('createControlPlaneSdk: baseUrl is required');
  const transport = createSdkTransport({ upstream: UPSTREAM, timeoutMs: options.timeoutMs, maxSockets: 256 });
  const configuration = transport.configuration(options.baseUrl);

  async function send<T>(
    c: CallContext,
    operation: string,
    schema: z.ZodType<T> | undefined,
    run: (options: SdkRequestOptions) => Promise<{ status: number; data: unknown }>,
  ): Promise<T> {
    const started = performance.now();
    let response: { status: number; data: unknown };
    try {
      const options = transport.requestOptions(c);
      response = await transport.resendIfReset(() => run(options));
    } catch (error) {
      throw transport.failure(error, operation);
    }
    c.log?.debug({ upstream: UPSTREAM, operation, status: response.status, ms: Math.round(performance.now() - started) }, 'upstream call');
    if (!schema) return response.data as T;
    const parsed = schema.safeParse(response.data);
    if (!parsed.success) {
      throw new UpstreamError(502, `${UPSTREAM} answered in an unexpected shape`, undefined, {
        kind: 'invalid_response',
        upstream: UPSTREAM,
        detail: `${operation}: ${parsed.error.message.slice(0, 2000)}`,
      });
    }
    return parsed.data;
  }

  return {
    projects: new ProjectApi(configuration),
    workspaces: new WorkspaceApi(configuration),
    events: new EventsApi(configuration),
    send,
    close: transport.close,
  };
}

export type ControlPlaneSdk = ReturnType<typeof createControlPlaneSdk>;

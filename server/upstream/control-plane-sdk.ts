import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Configuration, ProjectApi, WorkspaceApi } from '@ory/client';
import type { z } from 'zod';
import type { CallContext } from './backoffice';
import { sessionCookieHeader } from './cookies';
import { UpstreamError } from './errors';
import { fromAxiosError } from './ory';

/** Per-call options every `@ory/client` method takes last (axios request config). */
export type SdkRequestOptions = NonNullable<Parameters<ProjectApi['listProjects']>[0]>;

const UPSTREAM = 'backoffice';

/**
 * The control plane through `@ory/client` (ProjectApi, WorkspaceApi) with `basePath` always set, so no call
 * goes to the public cloud host. `send` forwards only the session cookie, carries the request's deadline
 * (or a timeout of its own), converts axios errors once, and validates the answer against our schema.
 */
export function createControlPlaneSdk(options: { baseUrl: string; timeoutMs: number }) {
  if (!options.baseUrl) throw new Error('createControlPlaneSdk: baseUrl is required');
  const { timeoutMs } = options;
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
  const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64 });
  const configuration = new Configuration({
    basePath: options.baseUrl,
    baseOptions: { timeout: timeoutMs, maxRedirects: 0, proxy: false, httpAgent, httpsAgent },
  });

  async function send<T>(
    c: CallContext,
    operation: string,
    schema: z.ZodType<T> | undefined,
    run: (options: SdkRequestOptions) => Promise<{ status: number; data: unknown }>,
  ): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    const cookie = sessionCookieHeader(c.cookie);
    if (cookie) headers.cookie = cookie;
    if (c.requestId) headers['x-request-id'] = c.requestId;
    const started = performance.now();
    let response: { status: number; data: unknown };
    try {
      response = await run({ headers, signal: c.signal ?? AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw fromAxiosError(error, UPSTREAM, timeoutMs);
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
    send,
    close(): void {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

export type ControlPlaneSdk = ReturnType<typeof createControlPlaneSdk>;

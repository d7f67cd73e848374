import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Configuration, FrontendApi } from '@ory/client';
import { sessionSchema, type Session } from '../../shared/schemas/session';
import type { CallContext } from './backoffice';
import { sessionCookieHeader } from './cookies';
import { UpstreamError, reasonFromBody } from './errors';
import { deadline } from './transport';

interface AxiosLikeError {
  isAxiosError?: boolean;
  code?: string;
  message?: string;
  response?: { status: number; data?: unknown; headers?: Record<string, unknown> };
  config?: { method?: string; url?: string };
}

/** The one place an axios error from @ory/client becomes an UpstreamError. */
export function fromAxiosError(error: unknown, upstream = 'ory', timeoutMs?: number): UpstreamError {
  if (error instanceof UpstreamError) return error;
  const e = (error ?? {}) as AxiosLikeError;
  const where = `${e.config?.method?.toUpperCase() ?? ''} ${safePath(e.config?.url)}`.trim();
  if (e.response) {
    const { status, data, headers } = e.response;
    const { reason, errorId, request, details } = reasonFromBody(data, status);
    const requestId = typeof headers?.['x-request-id'] === 'string' ? (headers['x-request-id'] as string) : request;
    return new UpstreamError(status, reason, requestId, {
      upstream,
      ...(errorId ? { errorId } : {}),
      ...(details ? { details } : {}),
      detail: `${where} → ${status}`,
    });
  }
  if (e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT' || e.code === 'ERR_CANCELED') {
    return new UpstreamError(504, `${upstream} did not answer within ${timeoutMs ?? '?'} ms`, undefined, {
      kind: 'timeout',
      upstream,
      detail: `${where} timed out`,
    });
  }
  return new UpstreamError(502, `${upstream} could not be reached`, undefined, {
    kind: 'network',
    upstream,
    detail: `${where}: ${e.code ?? e.message ?? String(error)}`,
    cause: error,
  });
}

function safePath(url: string | undefined): string {
  if (!url) return '';
  try {
    return new URL(url).pathname;
  } catch {
    return url.split('?')[0] ?? '';
  }
}

/** Identity provider frontend API (@ory/client FrontendApi) with basePath always set. */
export function createOryClient(options: { basePath: string; timeoutMs: number }) {
  if (!options.basePath) throw new Error('createOryClient: basePath is required');
  const { basePath, timeoutMs } = options;
  const configuration = new Configuration({
    basePath,
    baseOptions: {
      timeout: timeoutMs,
      httpAgent: new HttpAgent({ keepAlive: true }),
      httpsAgent: new HttpsAgent({ keepAlive: true }),
      maxRedirects: 0,
    },
  });
  const frontend = new FrontendApi(configuration);

  return {
    basePath,
    frontend,
    /** GET /sessions/whoami with the forwarded session cookie; throws UpstreamError (401 when signed out). */
    async toSession(c: CallContext): Promise<Session> {
      const cookie = sessionCookieHeader(c.cookie);
      if (!cookie) throw new UpstreamError(401, 'No valid session credentials found in the request.', undefined, { upstream: 'ory', errorId: 'session_inactive' });
      try {
        const headers: Record<string, string> = {};
        if (c.requestId) headers['x-request-id'] = c.requestId;
        // axios' `timeout` restarts with every byte; the signal is the call's one total deadline.
        const response = await frontend.toSession({ cookie }, { headers, signal: deadline(timeoutMs) });
        const parsed = sessionSchema.safeParse(response.data);
        if (!parsed.success) {
          throw new UpstreamError(502, 'ory answered in an unexpected shape', undefined, {
            kind: 'invalid_response',
            upstream: 'ory',
            detail: parsed.error.message.slice(0, 2000),
          });
        }
        return parsed.data;
      } catch (error) {
        throw fromAxiosError(error, 'ory', timeoutMs);
      }
    },
  };
}

export type OryClient = ReturnType<typeof createOryClient>;

import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { Configuration, type ProjectApi } from '@ory/client';
import { injectTraceContext } from '../../shared/telemetry';
import { RequiredParameterError } from '../../shared/domain/required-param';
import { sessionCookieHeader } from './cookies';
import { UpstreamError, reasonFromBody } from './errors';
import { IDEMPOTENT } from './transport';

/** Per-call options every `@ory/client` method takes last (axios request config). */
export type SdkRequestOptions = NonNullable<Parameters<ProjectApi['listProjects']>[0]>;

/** Who an SDK call is made for: only the session cookie(s) of `cookie` leave the BFF. */
export interface SdkCaller {
  cookie?: string | undefined;
  requestId?: string | undefined;
  /** The request's deadline; without one, each call gets the configured timeout. */
  signal?: AbortSignal | undefined;
  /** Gives a write its `Idempotency-Key` (see CallContext in backoffice.ts). */
  idempotencyKey?: ((method: string, url: string) => string) | undefined;
}

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

export interface SdkTransportOptions {
  /** Which upstream answers (backoffice, ory, project-api): named in errors and logs. */
  upstream: string;
  timeoutMs: number;
  /** Sockets kept per host (a hot upstream gets more). */
  maxSockets?: number;
}

/**
 * A call the upstream never answered because the kept-alive connection it was sent on had just been closed by the
 * upstream (ECONNRESET on a reused socket), when sending it again is safe: an idempotent method, or a write
 * carrying an Idempotency-Key. Such a call is sent once more on a fresh connection, as the console's own
 * transport does (transport.ts).
 */
function closedUnderUs(error: unknown): boolean {
  const e = error as { code?: unknown; request?: { reusedSocket?: unknown }; config?: { method?: unknown; headers?: Record<string, unknown> } } | null;
  if (e?.code !== 'ECONNRESET' || e.request?.reusedSocket !== true) return false;
  const method = typeof e.config?.method === 'string' ? e.config.method.toUpperCase() : '';
  const headers = e.config?.headers;
  return IDEMPOTENT.has(method) || Boolean(headers && (headers['idempotency-key'] ?? headers['Idempotency-Key']));
}

/**
 * Everything every `@ory/client` call needs, in one place instead of at each call: keep-alive agents, no
 * redirects and no proxy (the cookie goes to the configured base path only), the headers (accept, the
 * session cookie only, the request id), the deadline (axios' `timeout` is an idle timeout, so each call gets
 * the request's signal or one of its own), and one conversion of failures — a missing required parameter
 * becomes the spec's RequiredParameterError (nothing is sent), anything else an UpstreamError.
 */
export function createSdkTransport(options: SdkTransportOptions) {
  const { upstream, timeoutMs } = options;
  const sockets = options.maxSockets ? { maxSockets: options.maxSockets, maxFreeSockets: Math.max(1, options.maxSockets / 4) } : {};
  const httpAgent = new HttpAgent({ keepAlive: true, ...sockets });
  const httpsAgent = new HttpsAgent({ keepAlive: true, ...sockets });

  /** The options of one call made for `caller`. */
  function requestOptions(caller: SdkCaller): SdkRequestOptions & { headers: Record<string, string>; signal: AbortSignal } {
    const headers: Record<string, string> = { accept: 'application/json' };
    const cookie = sessionCookieHeader(caller.cookie);
    if (cookie) headers.cookie = cookie;
    if (caller.requestId) headers['x-request-id'] = caller.requestId;
    injectTraceContext(headers);
    const options = { headers, signal: caller.signal ?? AbortSignal.timeout(timeoutMs) };
    const next = caller.idempotencyKey;
    if (!next) return options;
    // Names the write's key (axios calls this with the call's config). It stands in for axios' own request
    // transform, so it also serializes what the SDK left unserialized, as that one would.
    const keyWrites = function (this: { method?: string; url?: string }, data: unknown, outgoing: Record<string, unknown>) {
      const method = (this.method ?? 'GET').toUpperCase();
      if (method !== 'GET') outgoing['idempotency-key'] = next(method, this.url ?? '');
      if (data instanceof URLSearchParams) return data.toString();
      if (data !== null && typeof data === 'object' && !Buffer.isBuffer(data) && !(data instanceof ArrayBuffer)) return JSON.stringify(data);
      return data;
    };
    return { ...options, transformRequest: [keyWrites] };
  }

  /**
   * A configuration at `basePath`; with a caller, every call made through it carries that caller's headers
   * and deadline (axios merges a call's own options, e.g. extra query parameters, over them).
   */
  function configuration(basePath: string, caller?: SdkCaller): Configuration {
    if (!basePath) throw new Error(`${upstream}: basePath is required`);
    return new Configuration({
      basePath,
      baseOptions: { timeout: timeoutMs, maxRedirects: 0, proxy: false, httpAgent, httpsAgent, ...(caller ? requestOptions(caller) : {}) },
    });
  }

  /** What a failed call of `operation` throws. */
  function failure(error: unknown, operation: string): Error {
    const missing = error as { name?: string; field?: unknown } | undefined;
    if (missing?.name === 'RequiredError' && typeof missing.field === 'string') return new RequiredParameterError(missing.field, operation);
    return fromAxiosError(error, upstream, timeoutMs);
  }

  /** Runs a call; runs it once more when the connection it went on was closed under it (`closedUnderUs`). */
  function resendIfReset<T>(call: () => Promise<T>): Promise<T> {
    return call().catch((error: unknown) => (closedUnderUs(error) ? call() : Promise.reject(error)));
  }

  /** `api` whose every method fails through `failure` (the method's name is the operation). */
  function guarded<T extends object>(api: T): T {
    return new Proxy(api, {
      get(target, property, receiver) {
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== 'function' || property === 'constructor') return value;
        return (...args: unknown[]) => {
          try {
            return resendIfReset(() => Promise.resolve((value as (...a: unknown[]) => unknown).apply(target, args))).catch((error: unknown) => {
              throw failure(error, String(property));
            });
          } catch (error) {
            return Promise.reject(failure(error, String(property)));
          }
        };
      },
    });
  }

  return {
    upstream,
    timeoutMs,
    requestOptions,
    configuration,
    failure,
    resendIfReset,
    guarded,
    /** Drops the kept-alive connections. */
    close(): void {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

export type SdkTransport = ReturnType<typeof createSdkTransport>;

import type { Logger } from 'pino';
import type { z } from 'zod';
import { sessionCookieHeader } from './cookies';
import { UpstreamError, reasonFromBody } from './errors';
import { createTransport, disposableDeadline } from './transport';

export { UpstreamError, isUpstreamError, type UpstreamErrorKind } from './errors';
export { sessionCookieHeader, isSessionCookieName } from './cookies';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A body that is JSON text already, sent as it is (a document whose author's bytes must arrive unchanged). */
export class JsonText {
  constructor(readonly text: string) {}
}

export interface UpstreamRequest {
  method: HttpMethod;
  /** Path below the base URL, built with `path` so every parameter is encoded. */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** The browser's Cookie header; only the session cookie(s) are forwarded. */
  cookie?: string | undefined;
  requestId?: string | undefined;
  log?: Logger | undefined;
  /** Gives a write its `Idempotency-Key` (see CallContext). */
  idempotencyKey?: ((method: string, url: string) => string) | undefined;
  /** A read sent as POST (a permission check): retried as a GET is when a reused connection was closed under it. */
  readOnly?: boolean | undefined;
}

export interface UpstreamHttp {
  readonly name: string;
  readonly baseUrl: string;
  request<T>(req: UpstreamRequest, schema?: z.ZodType<T>): Promise<T>;
  /** Drops the kept-alive connections. */
  close(): void;
}

export interface UpstreamHttpOptions {
  name: string;
  baseUrl: string;
  timeoutMs: number;
}

/** One path segment: everything encoded, and '.'/'..' too, so a value can never climb the path. */
function segment(value: string | number): string {
  const encoded = encodeURIComponent(String(value));
  return encoded === '.' || encoded === '..' ? encoded.replace(/\./g, '%2E') : encoded;
}

/** Joins literal path parts and values, encoding each value as one path segment. */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce((out, part, i) => out + part + (i < values.length ? segment(values[i]!) : ''), '');
}

export function createUpstreamHttp(options: UpstreamHttpOptions): UpstreamHttp {
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const baseOrigin = base.origin;
  const { name, timeoutMs } = options;
  const transport = createTransport();

  function buildUrl(req: UpstreamRequest): URL {
    if (!req.path.startsWith('/')) throw new Error(`Upstream path must start with /: ${req.path}`);
    const url = new URL(baseOrigin + basePath + req.path);
    // The session cookie goes only to the configured upstream: refuse anything that resolves elsewhere.
    if (url.origin !== baseOrigin || !url.pathname.startsWith(basePath + '/')) {
      throw new Error(`Refusing to send credentials outside ${name}: ${url.origin}`);
    }
    for (const [key, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    return url;
  }

  async function request<T>(req: UpstreamRequest, schema?: z.ZodType<T>): Promise<T> {
    const url = buildUrl(req);
    const headers: Record<string, string> = { accept: 'application/json' };
    const cookie = sessionCookieHeader(req.cookie);
    if (cookie) headers.cookie = cookie;
    if (req.requestId) headers['x-request-id'] = req.requestId;
    if (req.method !== 'GET' && req.idempotencyKey) headers['idempotency-key'] = req.idempotencyKey(req.method, url.href);
    let body: string | undefined;
    if (req.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = req.body instanceof JsonText ? req.body.text : JSON.stringify(req.body);
    }
    const started = performance.now();
    let response: Awaited<ReturnType<typeof transport.send>>;
    // One total deadline over connect, send, wait and read (the transport resolves once the body is read).
    const limit = disposableDeadline(timeoutMs);
    try {
      response = await transport.send(url, { method: req.method, headers, body, signal: limit.signal, readOnly: req.readOnly });
    } catch (error) {
      throw transportError(error, name, req, timeoutMs);
    } finally {
      limit.done();
    }
    const requestIdHeader = response.headers['x-request-id'];
    const upstreamRequestId = typeof requestIdHeader === 'string' ? requestIdHeader : undefined;
    req.log?.debug(
      { upstream: name, method: req.method, path: url.pathname, status: response.status, ms: Math.round(performance.now() - started) },
      'upstream call',
    );
    const data = parseJson(response.text);
    if (response.status < 200 || response.status >= 300) {
      const { reason, errorId, request, details } = reasonFromBody(data, response.status);
      throw new UpstreamError(response.status, reason, upstreamRequestId ?? request, {
        upstream: name,
        ...(errorId ? { errorId } : {}),
        ...(details ? { details } : {}),
        detail: `${req.method} ${url.pathname} → ${response.status}`,
      });
    }
    if (!schema) return data as T;
    const parsed = schema.safeParse(data);
    if (!parsed.success) {
      throw new UpstreamError(502, `${name} answered in an unexpected shape`, upstreamRequestId, {
        kind: 'invalid_response',
        upstream: name,
        detail: `${req.method} ${url.pathname}: ${parsed.error.message.slice(0, 2000)}`,
      });
    }
    return parsed.data;
  }

  return { name, baseUrl: baseOrigin + basePath, request, close: transport.close };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function transportError(error: unknown, name: string, req: UpstreamRequest, timeoutMs: number): UpstreamError {
  const err = error as { name?: string; code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') {
    return new UpstreamError(504, `${name} did not answer within ${timeoutMs} ms`, undefined, {
      kind: 'timeout',
      upstream: name,
      detail: `${req.method} ${req.path} timed out after ${timeoutMs} ms`,
    });
  }
  return new UpstreamError(502, `${name} could not be reached`, undefined, {
    kind: 'network',
    upstream: name,
    detail: `${req.method} ${req.path}: ${err?.code ?? err?.cause?.code ?? err?.message ?? String(error)}`,
    cause: error,
  });
}

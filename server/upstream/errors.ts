import { errorReason } from '../../shared/domain/errors';

/** How an upstream call failed: an HTTP answer, no answer in time, no connection, or an unreadable answer. */
export type UpstreamErrorKind = 'http' | 'timeout' | 'network' | 'invalid_response';

export interface UpstreamErrorOptions {
  kind?: UpstreamErrorKind;
  /** Ory's error.id (e.g. session_aal2_required, feature_not_available). */
  errorId?: string;
  /** Which upstream answered (backoffice, ory). */
  upstream?: string;
  /** Diagnostic detail for the log only; never shown to the user. */
  detail?: string;
  /** Ory's `error.details` (e.g. the problems of a refused schema), for a 4xx the caller may act on. */
  details?: Record<string, unknown>;
  cause?: unknown;
}

/** The one error type for every failed upstream call; the tRPC error pipeline maps it to a tRPC code. */
export class UpstreamError extends Error {
  readonly kind: UpstreamErrorKind;
  readonly errorId: string | undefined;
  readonly upstream: string | undefined;
  readonly detail: string | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    readonly status: number,
    readonly reason: string,
    readonly requestId?: string,
    options: UpstreamErrorOptions = {},
  ) {
    super(reason, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'UpstreamError';
    this.kind = options.kind ?? 'http';
    this.errorId = options.errorId;
    this.upstream = options.upstream;
    this.detail = options.detail;
    this.details = options.details;
  }
}

export function isUpstreamError(value: unknown): value is UpstreamError {
  return value instanceof UpstreamError;
}

/** Ory errorGeneric → the most useful text (reason, then message; shared rule) plus its id, request id and details. */
export function reasonFromBody(body: unknown, status: number): { reason: string; errorId?: string; request?: string; details?: Record<string, unknown> } {
  const reason = errorReason(body) ?? `HTTP ${status}`;
  const inner = body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined;
  const e = inner && typeof inner === 'object' ? (inner as Record<string, unknown>) : {};
  return {
    reason,
    ...(typeof e.id === 'string' ? { errorId: e.id } : {}),
    ...(typeof e.request === 'string' ? { request: e.request } : {}),
    ...(e.details && typeof e.details === 'object' && !Array.isArray(e.details) ? { details: e.details as Record<string, unknown> } : {}),
  };
}

import { TRPCError } from '@trpc/server';
import type { Logger } from 'pino';
import { ZodError } from 'zod';
import { RequiredParameterError } from '../../shared/domain/required-param';
import { UpstreamError } from '../upstream/errors';

type Code = TRPCError['code'];

export const GENERIC_UPSTREAM_MESSAGE = 'The service is temporarily unavailable. Please try again in a moment.';
export const GENERIC_TIMEOUT_MESSAGE = 'The service did not answer in time. Please try again in a moment.';
export const GENERIC_INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again in a moment.';

const CLIENT_ERROR_CODES: Record<number, Code> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  410: 'NOT_FOUND',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'UNPROCESSABLE_CONTENT',
  429: 'TOO_MANY_REQUESTS',
};

/** Seconds a caller told SERVICE_UNAVAILABLE waits before trying again (`Retry-After`). */
export const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 1;

/** The tRPC code for an upstream failure (docs/design.md §3.3). */
export function codeForUpstream(error: UpstreamError): Code {
  if (error.kind === 'timeout') return 'GATEWAY_TIMEOUT';
  // The upstream is up but cannot answer now (its database went away): the call can be tried again.
  if (error.kind === 'http' && error.status === 503) return 'SERVICE_UNAVAILABLE';
  if (error.kind !== 'http' || error.status >= 500 || error.status < 400) return 'BAD_GATEWAY';
  return CLIENT_ERROR_CODES[error.status] ?? 'BAD_REQUEST';
}

/** One line per zod issue: "name: Project name is required". */
export function readableZodMessage(error: ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`)
    .join('; ');
}

/** The reason logged when an answer fails the schema it was read with (a procedure's `.output()` or a handler's parse). */
export const UNEXPECTED_SHAPE_REASON = 'The upstream answered in an unexpected shape';

/**
 * A zod failure the caller's input did not cause: an upstream answer that does not fit the schema it was
 * read with. It is the upstream's fault (BAD_GATEWAY), like a shape the upstream clients refuse themselves.
 * The detail names fields and rules only (zod issues carry no input values), never what was answered.
 */
export function unexpectedShape(error: ZodError): UpstreamError {
  return new UpstreamError(502, UNEXPECTED_SHAPE_REASON, undefined, { kind: 'invalid_response', detail: readableZodMessage(error).slice(0, 2000) });
}

/** What a 4xx upstream refusal tells the caller beyond the message (`data` of the tRPC error); null otherwise. */
export function upstreamErrorData(cause: unknown): { reason: string | null; errorId: string | null; details: Record<string, unknown> | null } {
  const upstream = cause instanceof UpstreamError && cause.kind === 'http' && cause.status >= 400 && cause.status < 500 ? cause : undefined;
  return { reason: upstream?.reason ?? null, errorId: upstream?.errorId ?? null, details: upstream?.details ?? null };
}

/**
 * The one error pipeline: any failure of a procedure becomes a TRPCError whose message is safe to show.
 * 4xx keep the upstream reason; 5xx, network and unknown failures get a generic text, detail to the log.
 * A zod failure is the caller's (BAD_REQUEST) only when it came from reading the input; any other one is
 * an upstream answer in an unexpected shape (BAD_GATEWAY, logged).
 */
export function toTRPCError(error: unknown, log: Logger, path: string): TRPCError {
  const cause = error instanceof TRPCError && error.cause ? error.cause : error;
  if (cause instanceof ZodError && !(error instanceof TRPCError && error.code === 'BAD_REQUEST')) {
    return toTRPCError(unexpectedShape(cause), log, path);
  }
  if (cause instanceof UpstreamError) {
    const code = codeForUpstream(cause);
    const logged = { path, upstream: cause.upstream, status: cause.status, kind: cause.kind, upstreamRequestId: cause.requestId, detail: cause.detail };
    if (code === 'BAD_GATEWAY' || code === 'GATEWAY_TIMEOUT' || code === 'SERVICE_UNAVAILABLE') {
      if (code === 'SERVICE_UNAVAILABLE') log.warn(logged, `upstream unavailable: ${cause.reason}`);
      else log.error(logged, `upstream failure: ${cause.reason}`);
      return new TRPCError({ code, message: code === 'GATEWAY_TIMEOUT' ? GENERIC_TIMEOUT_MESSAGE : GENERIC_UPSTREAM_MESSAGE, cause });
    }
    log.info(logged, 'upstream refused');
    return new TRPCError({ code, message: cause.reason, cause });
  }
  if (cause instanceof ZodError) {
    return new TRPCError({ code: 'BAD_REQUEST', message: readableZodMessage(cause), cause });
  }
  if (cause instanceof RequiredParameterError) {
    return new TRPCError({ code: 'BAD_REQUEST', message: cause.message, cause });
  }
  if (error instanceof TRPCError && error.code !== 'INTERNAL_SERVER_ERROR') return error;
  log.error({ path, err: cause }, 'procedure failed');
  return new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: GENERIC_INTERNAL_MESSAGE, cause: error instanceof Error ? error : undefined });
}

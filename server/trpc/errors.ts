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

/** The tRPC code for an upstream failure (docs/design.md §3.3). */
export function codeForUpstream(error: UpstreamError): Code {
  if (error.kind === 'timeout') return 'GATEWAY_TIMEOUT';
  if (error.kind !== 'http' || error.status >= 500 || error.status < 400) return 'BAD_GATEWAY';
  return CLIENT_ERROR_CODES[error.status] ?? 'BAD_REQUEST';
}

/** One line per zod issue: "name: Project name is required". */
export function readableZodMessage(error: ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`)
    .join('; ');
}

/**
 * The one error pipeline: any failure of a procedure becomes a TRPCError whose message is safe to show.
 * 4xx keep the upstream reason; 5xx, network and unknown failures get a generic text, detail to the log.
 */
export function toTRPCError(error: unknown, log: Logger, path: string): TRPCError {
  const cause = error instanceof TRPCError && error.cause ? error.cause : error;
  if (cause instanceof UpstreamError) {
    const code = codeForUpstream(cause);
    const logged = { path, upstream: cause.upstream, status: cause.status, kind: cause.kind, upstreamRequestId: cause.requestId, detail: cause.detail };
    if (code === 'BAD_GATEWAY' || code === 'GATEWAY_TIMEOUT') {
      log.error(logged, `upstream failure: ${cause.reason}`);
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

import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '../../../server/routers/_app';
import { errorStatus } from '../../../shared/domain/errors';

/** Reading tRPC client errors without importing anything at runtime from the server. */
export { errorStatus, errorText } from '../../../shared/domain/errors';

export type ConsoleClientError = TRPCClientError<AppRouter>;

/** Error ids the console reacts to, as the identity provider and the control plane send them. */
export const ERROR_IDS = {
  /** A second factor is needed (the session answered 403). */
  sessionAal2Required: 'session_aal2_required',
  /** The plan does not include the feature. */
  featureNotAvailable: 'feature_not_available',
  quotaExceeded: 'quota_exceeded',
} as const;

/** The BFF's reason for a second factor, for answers that carry no Ory error id. */
export const AAL2_REASON = 'aal2';

/** True for an error that came back from the BFF (typed by the app's router). */
export function isConsoleError(error: unknown): error is ConsoleClientError {
  return error instanceof TRPCClientError;
}

function errorData(error: unknown): ConsoleClientError['data'] | undefined {
  if (isConsoleError(error)) return error.data ?? undefined;
  // Errors rebuilt from a cache or a test double keep the same shape without the class.
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  return typeof data === 'object' && data !== null ? (data as ConsoleClientError['data']) : undefined;
}

/** The tRPC error code ('NOT_FOUND', 'FORBIDDEN', 'CONFLICT', …) when the error came from the BFF. */
export function errorCode(error: unknown): string | undefined {
  return errorData(error)?.code;
}

/** The upstream's error id (e.g. 'session_aal2_required'), when it sent one. */
export function errorId(error: unknown): string | undefined {
  return errorData(error)?.errorId ?? undefined;
}

/** The upstream's short reason for a 4xx (e.g. 'aal2'), when it sent one. */
export function errorReasonOf(error: unknown): string | undefined {
  return errorData(error)?.reason ?? undefined;
}

/** Spec §4: the session answered 403 because a second factor is needed. */
export function isAal2Required(error: unknown): boolean {
  if (errorCode(error) !== 'FORBIDDEN') return false;
  return errorId(error) === ERROR_IDS.sessionAal2Required || errorReasonOf(error) === AAL2_REASON;
}

/** A write based on an older revision (or version) than the current one. */
export function isConflict(error: unknown): boolean {
  return errorCode(error) === 'CONFLICT' || errorStatus(error) === 409;
}

/** Field-level messages of a BAD_REQUEST caused by input validation. */
export function fieldErrors(error: unknown): Record<string, string> {
  const fields = errorData(error)?.zodError?.fieldErrors ?? {};
  const out: Record<string, string> = {};
  for (const [name, messages] of Object.entries(fields as Record<string, string[] | undefined>)) {
    if (messages?.[0]) out[name] = messages[0];
  }
  return out;
}

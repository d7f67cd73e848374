import type { TRPCLink } from '@trpc/client';
import type { AnyRouter } from '@trpc/server';
import { observable } from '@trpc/server/observable';

/** One failed call, as the support page's diagnostic report lists it: which procedure, and how it failed. */
export interface FailedRequest {
  procedure: string;
  /** The tRPC error code ('NOT_FOUND', 'BAD_GATEWAY', …), or 'NETWORK' when no answer came. */
  code: string;
  status: number | null;
  at: string;
}

/** How many failures are kept, newest last. */
export const FAILED_REQUESTS_KEPT = 5;

const failures: FailedRequest[] = [];

/** Keeps a failure's procedure name and code only: never its input, message or answer (they may hold personal data). */
export function recordFailure(procedure: string, error: unknown, at: Date = new Date()): void {
  const data = (error as { data?: { code?: unknown; httpStatus?: unknown } } | null)?.data;
  failures.push({
    procedure,
    code: typeof data?.code === 'string' ? data.code : 'NETWORK',
    status: typeof data?.httpStatus === 'number' ? data.httpStatus : null,
    at: at.toISOString(),
  });
  if (failures.length > FAILED_REQUESTS_KEPT) failures.splice(0, failures.length - FAILED_REQUESTS_KEPT);
}

export function recentFailures(): readonly FailedRequest[] {
  return [...failures];
}

/** A tRPC link that notes every failed call (recordFailure) and passes everything on unchanged. */
export function failedRequestsLink<TRouter extends AnyRouter>(): TRPCLink<TRouter> {
  return () =>
    ({ next, op }) =>
      observable((observer) =>
        next(op).subscribe({
          next: (value) => observer.next(value),
          error: (error) => {
            recordFailure(op.path, error);
            observer.error(error);
          },
          complete: () => observer.complete(),
        }),
      );
}

/** Reading tRPC client errors without importing anything at runtime from the server. */
export { errorStatus, errorText } from '../../../shared/domain/errors';

interface TrpcErrorData {
  code?: string;
  httpStatus?: number;
  zodError?: { fieldErrors?: Record<string, string[] | undefined>; formErrors?: string[] } | null;
}

function errorData(error: unknown): TrpcErrorData | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  return typeof data === 'object' && data !== null ? (data as TrpcErrorData) : undefined;
}

/** The tRPC error code ('NOT_FOUND', 'FORBIDDEN', …) when the error came from the BFF. */
export function errorCode(error: unknown): string | undefined {
  return errorData(error)?.code;
}

/** Field-level messages of a BAD_REQUEST caused by input validation. */
export function fieldErrors(error: unknown): Record<string, string> {
  const fields = errorData(error)?.zodError?.fieldErrors ?? {};
  const out: Record<string, string> = {};
  for (const [name, messages] of Object.entries(fields)) {
    if (messages?.[0]) out[name] = messages[0];
  }
  return out;
}

import type { GenericError } from '@ory/client';
/**
 * Ory's error body (`errorGeneric`), built in one place for the console and its local stack:
 * `{ error: { id?, code, status, request?, reason?, message, details? }, ...extra }`.
 */
export interface ErrorBody {
  error: {
    id?: string;
    code: number;
    status: string;
    request?: string;
    reason?: string;
    message: string;
    details?: Record<string, unknown>;
  };
  [extra: string]: unknown;
}

/** Ory's `error.status` (the reason phrase) and default `error.message` per code. */
const STATUS: Record<number, [string, string]> = {
  400: ['Bad Request', 'The request was malformed or contained invalid parameters'],
  401: ['Unauthorized', 'The request could not be authorized'],
  403: ['Forbidden', 'The requested action was forbidden'],
  404: ['Not Found', 'The requested resource could not be found'],
  409: ['Conflict', 'The resource could not be created due to a conflict'],
  410: ['Gone', 'The requested resource is no longer available'],
  413: ['Payload Too Large', 'The request body is too large'],
  415: ['Unsupported Media Type', 'The request content type is not supported'],
  422: ['Unprocessable Entity', 'The request was well-formed but was unable to be followed due to semantic errors'],
  429: ['Too Many Requests', 'The request was rate limited'],
  500: ['Internal Server Error', 'An internal server error occurred, please contact the system administrator'],
  502: ['Bad Gateway', 'The upstream service answered with an error'],
  503: ['Service Unavailable', 'The service is temporarily unavailable, please try again later'],
  504: ['Gateway Timeout', 'The upstream service did not answer in time'],
};

export interface ErrorInit {
  /** A stable error id (`session_inactive`, `security_csrf_violation`, …). */
  id?: string;
  /** The request's id, so a report can be matched with the log. */
  request?: string;
  /** What went wrong and what to do about it. */
  reason?: string;
  message?: string;
  details?: Record<string, unknown>;
  /** Extra top-level fields (e.g. `use_flow_id`, `redirect_browser_to`). */
  extra?: Record<string, unknown>;
}

export function errorBody(code: number, init: ErrorInit = {}): ErrorBody {
  const [status, message] = STATUS[code] ?? ['Error', 'An error occurred'];
  return {
    error: {
      ...(init.id ? { id: init.id } : {}),
      code,
      status,
      ...(init.request ? { request: init.request } : {}),
      ...(init.reason ? { reason: init.reason } : {}),
      message: init.message ?? message,
      ...(init.details ? { details: init.details } : {}),
    },
    ...init.extra,
  };
}

/**
 * Compile-time proof that every body `errorBody` builds is Ory's errorGeneric: `{ error: genericError }`.
 * (The console API's `GenericErrorContent` narrows `id` to its two quota ids; Kratos' ids are wider.)
 */
export const asErrorGeneric = (body: ErrorBody): { error: GenericError } => body;

import { errorBody, type ErrorBody, type ErrorInit } from '../../shared/ory-error';

export { errorBody, type ErrorBody, type ErrorInit };

/** Thrown by handlers; the app's error handler answers `status` with `body`. */
export class OryHttpError extends Error {
  readonly body: ErrorBody;
  constructor(
    readonly status: number,
    init: ErrorInit = {},
  ) {
    super(init.reason ?? init.message ?? `HTTP ${status}`);
    this.body = errorBody(status, init);
  }
}

export const flowNotFound = () =>
  new OryHttpError(404, {
    reason: 'The requested flow could not be found. It may have been deleted or its ID is invalid.',
  });

export const noActiveSession = () =>
  new OryHttpError(401, {
    id: 'session_inactive',
    reason: 'No active session was found in this request.',
    message: 'request does not have a valid authentication session',
  });

/** Kratos' reasons for refusing a request without a matching anti-CSRF cookie. */
export const CSRF_REJECT_REASONS = {
  noCookie: 'The HTTP Cookie Header is empty or not set.',
  cookieMissing: 'The HTTP Cookie Header was set but did not include the anti-CSRF cookie.',
  tokenMismatch:
    'The HTTP Cookie Header was set and a CSRF token was sent but they do not match. We recommend deleting all cookies for this domain and retrying the flow.',
} as const;

export const csrfViolation = (rejectReason: keyof typeof CSRF_REJECT_REASONS = 'tokenMismatch') =>
  new OryHttpError(403, {
    id: 'security_csrf_violation',
    reason:
      'Please retry the flow and optionally clear your cookies. The request was rejected to protect you from Cross-Site-Request-Forgery (CSRF) which could cause account takeover, leaking personal information, and other serious security issues.',
    message: 'the request was rejected to protect you from Cross-Site-Request-Forgery',
    details: {
      docs: 'https://www.ory.sh/kratos/docs/debug/csrf',
      reject_reason: CSRF_REJECT_REASONS[rejectReason],
    },
  });

export const returnToForbidden = (returnTo: string) =>
  new OryHttpError(400, {
    id: 'self_service_flow_return_to_forbidden',
    reason: `Requested return_to URL "${returnTo}" is not allowed.`,
  });

/** Kratos' ErrAlreadyLoggedIn of the login, registration and recovery flows. */
export const sessionAlreadyAvailable = (kind: 'login' | 'registration' | 'recovery' = 'login') =>
  new OryHttpError(400, {
    id: 'session_already_available',
    reason:
      kind === 'login'
        ? 'A valid session was detected and thus login is not possible. Did you forget to set `?refresh=true`?'
        : `A valid session was detected and thus ${kind} is not possible.`,
    ...(kind === 'recovery' ? {} : { message: 'you are already logged in' }),
  });

export const badBody = (reason: string) => new OryHttpError(400, { reason });

import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import { errorBody, type ErrorBody, type ErrorInit } from '../../shared/ory-error';
import { maskUrl } from '../../shared/redact';
import { DATABASE_UNAVAILABLE, isConnectionError, isUniqueViolation } from './db-errors';

export { errorBody, type ErrorBody, type ErrorInit };

/**
 * The one error of the local stack: an expected failure, answered as Ory's errorGeneric (`status` with `init`'s
 * id, reason, message, details and extra fields). Every surface answers it through `installErrorHandler`.
 */
export class OryError extends Error {
  constructor(
    readonly status: number,
    readonly init: Omit<ErrorInit, 'request'> = {},
  ) {
    super(init.reason ?? init.message ?? `HTTP ${status}`);
    this.name = 'OryError';
  }

  /** What went wrong, as the answer's reason says it (its message when it has no reason). */
  get reason(): string {
    return this.init.reason ?? this.message;
  }

  /** The answer's body; `request` (the request's id) where the surface names it. */
  bodyFor(request?: string): ErrorBody {
    return errorBody(this.status, { ...this.init, ...(request ? { request } : {}) });
  }

  get body(): ErrorBody {
    return this.bodyFor();
  }
}

// --- Failures every surface words the same way ---------------------------------------------------------------

export const badRequest = (reason: string, details?: Record<string, unknown>) =>
  new OryError(400, { reason, ...(details ? { details } : {}) });
export const unauthorized = (reason = 'No valid session was found. Sign in and try again.') => new OryError(401, { reason });
export const forbidden = (reason: string) => new OryError(403, { reason });
export const notFound = (reason: string) => new OryError(404, { reason });
export const conflict = (reason: string) => new OryError(409, { reason });
/** Ory's quota answers: 403 with the id a client reads and `details.feature` naming the feature. */
export const quotaExceeded = (feature: string, reason: string) =>
  new OryError(403, { id: 'quota_exceeded', reason, details: { feature } });
export const featureNotAvailable = (feature: string, reason: string) =>
  new OryError(403, { id: 'feature_not_available', reason, details: { feature } });

// --- Kratos' own answers (admin and public identity APIs) ----------------------------------------------------

/** Kratos' answer for an admin call without a usable credential. */
export const apiKeyRequired = () =>
  new OryError(401, {
    reason: 'The request could not be authorized. Send this project\u2019s API key as "Authorization: Bearer ory_pat_\u2026".',
  });

/** Kratos' text (sqlcon.ErrNoRows) of a 404 for a row that does not exist. */
export const RESOURCE_NOT_FOUND = 'Unable to locate the resource';

/**
 * Kratos' 404 for an identity, session or message that does not exist (in this project): the same answer
 * whatever is missing (`_what` names it for the reader of the call only).
 */
export const resourceNotFound = (_what?: string) => new OryError(404, { message: RESOURCE_NOT_FOUND });

/** Kratos' 409 when an identifier or address belongs to another identity already. */
export const identityConflict = () =>
  new OryError(409, { reason: 'This identity conflicts with another identity that already exists.' });

export const flowNotFound = () =>
  new OryError(404, {
    reason: 'The requested flow could not be found. It may have been deleted or its ID is invalid.',
  });

export const noActiveSession = () =>
  new OryError(401, {
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
  new OryError(403, {
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
  new OryError(400, {
    id: 'self_service_flow_return_to_forbidden',
    reason: `Requested return_to URL "${returnTo}" is not allowed.`,
  });

/** Kratos' ErrAlreadyLoggedIn of the login, registration and recovery flows. */
export const sessionAlreadyAvailable = (kind: 'login' | 'registration' | 'recovery' = 'login') =>
  new OryError(400, {
    id: 'session_already_available',
    reason:
      kind === 'login'
        ? 'A valid session was detected and thus login is not possible. Did you forget to set `?refresh=true`?'
        : `A valid session was detected and thus ${kind} is not possible.`,
    ...(kind === 'recovery' ? {} : { message: 'you are already logged in' }),
  });

export const badBody = (reason: string) => new OryError(400, { reason });

// --- Validation ----------------------------------------------------------------------------------------------

/** "name: Too small; environment: Invalid option" — names every bad field. */
export function describeZodError(error: z.ZodError, what: string): string {
  const parts = error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  return `Invalid ${what}: ${parts.join('; ')}`;
}

const WHERE: Record<string, string> = { body: 'request body', querystring: 'query parameters', params: 'path parameters' };

/**
 * The 400 for a failed schema validation: the reason names every bad field ("Invalid request body: name:
 * Too small; environment: Invalid option"), a bad path parameter is named on its own, and `details.fields`
 * maps each top-level field to its messages. Null for any other error.
 */
export function validationFailure(err: unknown): OryError | null {
  if (!hasZodFastifySchemaValidationErrors(err)) return null;
  const context = (err as FastifyError).validationContext ?? 'body';
  const issues = err.validation.map((issue) => ({
    path: issue.instancePath.split('/').filter(Boolean).join('.'),
    message: issue.message ?? 'Invalid value',
  }));
  if (context === 'params') {
    return badRequest(issues.map((i) => `The path parameter "${i.path}" ${i.message}.`).join(' '));
  }
  const reason = `Invalid ${WHERE[context] ?? context}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`;
  if (context !== 'body') return badRequest(reason);
  const fields: Record<string, string[]> = {};
  for (const issue of issues) {
    const field = issue.path.split('.')[0];
    if (field) (fields[field] ??= []).push(issue.message);
  }
  return badRequest(reason, { fields });
}

// --- The handler ---------------------------------------------------------------------------------------------

/** How one surface of the stack words what the shared handler answers. */
export interface ErrorSurface {
  /** Named in the log line of a failure. */
  name: string;
  /** Answers carry the request's id (`error.request`), as the control plane's do. */
  requestId?: boolean;
  /** A schema refusal names each field in `details.fields` too (control plane, admin API). */
  fieldDetails?: boolean;
  /** What a taken unique key answers (the admin API: Kratos' identity conflict); else it is a failure. */
  uniqueViolation?: () => OryError;
  /** The reason of a 500; Ory's default text when absent. */
  internalReason?: string;
}

export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
}

/**
 * Maps anything a handler throws to Ory's errorGeneric: an OryError as it is, a schema refusal 400 naming each
 * field, zod and framework 4xx with their message, a lost database 503, anything else 500 (detail to the log).
 */
export function errorAnswer(err: unknown, req: FastifyRequest, log: Logger, surface: ErrorSurface): ErrorAnswer {
  const request = surface.requestId ? req.id : undefined;
  const answer = (e: OryError): ErrorAnswer => ({ status: e.status, body: e.bodyFor(request) });
  if (err instanceof OryError) return answer(err);
  const invalid = validationFailure(err);
  if (invalid) return answer(surface.fieldDetails ? invalid : badRequest(invalid.reason));
  if (surface.uniqueViolation && isUniqueViolation(err)) return answer(surface.uniqueViolation());
  if (err instanceof z.ZodError) return answer(badRequest(describeZodError(err, 'request')));
  const status = (err as Partial<FastifyError>).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return answer(new OryError(status, { reason: (err as Partial<Error>).message ?? 'Bad request' }));
  }
  const url = maskUrl(req.url);
  if (isConnectionError(err)) {
    log.warn({ err, reqId: req.id, url }, `database connection lost during a ${surface.name} request`);
    return answer(new OryError(503, { reason: DATABASE_UNAVAILABLE }));
  }
  log.error({ err, reqId: req.id, url }, `${surface.name} request failed`);
  return answer(new OryError(500, surface.internalReason ? { reason: surface.internalReason } : {}));
}

/**
 * The one error handler of the local stack, for every route registered in `scope`. `browser` may answer
 * instead (the public API sends a browser to the tenant's error page), given the errorGeneric it would send;
 * it returns undefined to let the errorGeneric go out.
 */
export function installErrorHandler(
  scope: FastifyInstance,
  log: Logger,
  surface: ErrorSurface,
  browser?: (req: FastifyRequest, reply: FastifyReply, answer: ErrorAnswer) => unknown,
): void {
  scope.setErrorHandler(async (err: unknown, req, reply) => {
    const answer = errorAnswer(err, req, log, surface);
    const handled = browser?.(req, reply, answer);
    if (handled !== undefined) return handled;
    return reply.code(answer.status).send(answer.body);
  });
}

import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import { errorBody } from '../../shared/ory-error';
import { maskUrl } from '../../shared/redact';
import { DATABASE_UNAVAILABLE, isConnectionError } from '../db/errors';

/** An expected failure, answered as Ory's errorGeneric with the given status and reason. */
export class ControlPlaneError extends Error {
  constructor(
    readonly statusCode: number,
    readonly reason: string,
    readonly details?: Record<string, unknown>,
    /** Ory's error id, for the failures a client tells apart (`quota_exceeded`, `feature_not_available`). */
    readonly id?: string,
  ) {
    super(reason);
    this.name = 'ControlPlaneError';
  }
}

export const badRequest = (reason: string, details?: Record<string, unknown>) =>
  new ControlPlaneError(400, reason, details);
export const unauthorized = (reason = 'No valid session was found. Sign in and try again.') =>
  new ControlPlaneError(401, reason);
export const forbidden = (reason: string) => new ControlPlaneError(403, reason);
export const notFound = (reason: string) => new ControlPlaneError(404, reason);
export const conflict = (reason: string) => new ControlPlaneError(409, reason);
/** Ory's quota answers: 403 with the id a client reads and `details.feature` naming the feature. */
export const quotaExceeded = (feature: string, reason: string) => new ControlPlaneError(403, reason, { feature }, 'quota_exceeded');
export const featureNotAvailable = (feature: string, reason: string) =>
  new ControlPlaneError(403, reason, { feature }, 'feature_not_available');

/** Ory's errorGeneric with the request's id, so a report can be matched with the log. */
export function errorGeneric(code: number, reason: string, request?: string, details?: Record<string, unknown>, id?: string) {
  return errorBody(code, { reason, ...(id ? { id } : {}), ...(request ? { request } : {}), ...(details ? { details } : {}) });
}

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
export function validationFailure(err: unknown) {
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

/** Installs the errorGeneric answer for every route registered in `scope`. */
export function installErrorHandler(scope: FastifyInstance, log: Logger): void {
  scope.setErrorHandler((err: FastifyError | ControlPlaneError | Error, req, reply) => {
    const invalid = validationFailure(err);
    if (invalid) return reply.code(400).send(errorGeneric(400, invalid.reason, req.id, invalid.details));
    if (err instanceof ControlPlaneError) {
      return reply.code(err.statusCode).send(errorGeneric(err.statusCode, err.reason, req.id, err.details, err.id));
    }
    if (err instanceof z.ZodError) {
      return reply.code(400).send(errorGeneric(400, describeZodError(err, 'request'), req.id));
    }
    const statusCode = (err as FastifyError).statusCode;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      return reply.code(statusCode).send(errorGeneric(statusCode, err.message, req.id));
    }
    if (isConnectionError(err)) {
      log.warn({ err, reqId: req.id, url: maskUrl(req.url) }, 'database connection lost during a request');
      return reply.code(503).send(errorGeneric(503, DATABASE_UNAVAILABLE, req.id));
    }
    log.error({ err, reqId: req.id, url: maskUrl(req.url) }, 'control plane request failed');
    return reply.code(500).send(errorGeneric(500, 'The server could not complete the request.', req.id));
  });
}

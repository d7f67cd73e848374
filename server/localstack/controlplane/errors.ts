import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { z } from 'zod';
import { DATABASE_UNAVAILABLE, isConnectionError } from '../db/errors';

/** Ory's `error.message` per status; `error.status` is the HTTP reason phrase. */
const MESSAGES: Record<number, string> = {
  400: 'The request was malformed or contained invalid parameters',
  401: 'The request could not be authorized',
  403: 'The requested action was forbidden',
  404: 'The requested resource could not be found',
  409: 'The request could not be completed due to a conflict',
  500: 'An internal server error occurred, please contact the system administrator',
  503: 'The service is temporarily unavailable, please try again later',
};

/** An expected failure, answered as Ory's errorGeneric with the given status and reason. */
export class ControlPlaneError extends Error {
  constructor(
    readonly statusCode: number,
    readonly reason: string,
    readonly details?: Record<string, unknown>,
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

export function errorGeneric(code: number, reason: string, request?: string, details?: Record<string, unknown>) {
  return {
    error: {
      code,
      status: STATUS_CODES[code] ?? 'Error',
      reason,
      message: MESSAGES[code] ?? STATUS_CODES[code] ?? 'The request failed',
      ...(request ? { request } : {}),
      ...(details ? { details } : {}),
    },
  };
}

/** "name: Too small; environment: Invalid option" — names every bad field. */
export function describeZodError(error: z.ZodError, what: string): string {
  const parts = error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path ? `${path}: ${issue.message}` : issue.message;
  });
  return `Invalid ${what}: ${parts.join('; ')}`;
}

/** Installs the errorGeneric answer for every route registered in `scope`. */
export function installErrorHandler(scope: FastifyInstance, log: Logger): void {
  scope.setErrorHandler((err: FastifyError | ControlPlaneError | Error, req, reply) => {
    if (err instanceof ControlPlaneError) {
      return reply.code(err.statusCode).send(errorGeneric(err.statusCode, err.reason, req.id, err.details));
    }
    if (err instanceof z.ZodError) {
      return reply.code(400).send(errorGeneric(400, describeZodError(err, 'request'), req.id));
    }
    const statusCode = (err as FastifyError).statusCode;
    if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
      return reply.code(statusCode).send(errorGeneric(statusCode, err.message, req.id));
    }
    if (isConnectionError(err)) {
      log.warn({ err, reqId: req.id, url: req.url }, 'database connection lost during a request');
      return reply.code(503).send(errorGeneric(503, DATABASE_UNAVAILABLE, req.id));
    }
    log.error({ err, reqId: req.id, url: req.url }, 'control plane request failed');
    return reply.code(500).send(errorGeneric(500, 'The server could not complete the request.', req.id));
  });
}

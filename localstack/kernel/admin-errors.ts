import type { FastifyError, FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { z } from 'zod';
import { ControlPlaneError, describeZodError, validationFailure } from './control-plane-errors';
import { DATABASE_UNAVAILABLE, isConnectionError, isUniqueViolation } from '../db/errors';
import { errorBody, OryHttpError } from './ory-error';

/** Kratos' answer for an admin call without a usable credential. */
export const unauthorized = () =>
  new OryHttpError(401, {
    reason: 'The request could not be authorized. Send this project\u2019s API key as "Authorization: Bearer ory_pat_\u2026".',
  });

export const forbidden = (reason: string) => new OryHttpError(403, { reason });

export const badRequest = (reason: string, details?: Record<string, unknown>) =>
  new OryHttpError(400, { reason, ...(details ? { details } : {}) });

/** Kratos' text (sqlcon.ErrNoRows) of a 404 for a row that does not exist. */
export const RESOURCE_NOT_FOUND = 'Unable to locate the resource';

/**
 * Kratos' 404 for an identity, session or message that does not exist (in this project): the same answer
 * whatever is missing (`_what` names it for the reader of the call only).
 */
export const notFound = (_what?: string) => new OryHttpError(404, { message: RESOURCE_NOT_FOUND });

/** Kratos' 409 when an identifier or address belongs to another identity already. */
export const identityConflict = () =>
  new OryHttpError(409, { reason: 'This identity conflicts with another identity that already exists.' });

/**
 * Ory's errorGeneric for every failure of the admin API: our own errors as they are, schema validation
 * and the JSON patch helper's 400s naming the field, a taken identifier or address 409 (the write's
 * transaction is rolled back), zod and framework 4xx with their message, a lost database 503, anything else 500
 * (detail to the log only).
 */
export function installAdminErrorHandler(scope: FastifyInstance, log: Logger): void {
  scope.setErrorHandler((err: unknown, req, reply) => {
    if (err instanceof OryHttpError) return reply.code(err.status).send(err.body);
    const invalid = validationFailure(err);
    if (invalid) return reply.code(400).send(errorBody(400, { reason: invalid.reason, ...(invalid.details ? { details: invalid.details } : {}) }));
    if (isUniqueViolation(err)) return reply.code(409).send(identityConflict().body);
    if (err instanceof ControlPlaneError) {
      return reply.code(err.statusCode).send(errorBody(err.statusCode, { reason: err.reason, ...(err.details ? { details: err.details } : {}) }));
    }
    if (err instanceof z.ZodError) return reply.code(400).send(errorBody(400, { reason: describeZodError(err, 'request') }));
    const status = (err as Partial<FastifyError>).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return reply.code(status).send(errorBody(status, { reason: (err as Error).message }));
    }
    if (isConnectionError(err)) {
      log.warn({ err, reqId: req.id }, 'database connection lost during an admin request');
      return reply.code(503).send(errorBody(503, { reason: DATABASE_UNAVAILABLE }));
    }
    log.error({ err, reqId: req.id }, 'identity admin request failed');
    return reply.code(500).send(errorBody(500));
  });
}

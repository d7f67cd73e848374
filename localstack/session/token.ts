import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/types';
import type { Tenant } from '../kernel/tenant';
import { findSession, sessionToken } from '../kernel/session-token';

export * from '../kernel/session-token';

/** The request's session in its tenant (cookie of the tenant, X-Session-Token or bearer token), working at `now`. */
export const currentSession = (db: Db, tenant: Tenant, req: FastifyRequest, now: Date) =>
  findSession(db, tenant.nid, sessionToken(req, tenant.sessionCookie), now);

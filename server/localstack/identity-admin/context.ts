import type { FastifyRequest } from 'fastify';
import type { LocalStackContext } from '../context';
import type { HashOptions } from '../identity/password';
import { tenantOf } from '../identity/tenant';
import { authorizeAdmin, type AdminCaller } from './auth';

/** What the admin routes need from the stack. */
export interface AdminDeps {
  ctx: LocalStackContext;
  /** Argon2id cost for passwords set through the admin API (the stack's own setting). */
  hash: HashOptions;
  /** How far `extend` moves a session's expiry. */
  sessionLifespanMs: number;
}

export interface AdminRequest {
  tenant: { nid: string; projectId: string };
  caller: AdminCaller;
  /** The tenant's public base URL (`…/project-api/{slug}`), for schema_url. */
  base: string;
}

/** The project tenant the request's scope resolved, with the caller authorized for the request's method. */
export async function adminRequest(deps: AdminDeps, req: FastifyRequest): Promise<AdminRequest> {
  const tenant = tenantOf(req);
  if (!tenant.project) throw new Error('the identity admin API is only served on project tenants');
  const caller = await authorizeAdmin(deps.ctx.db, req, tenant.project);
  return { tenant: { nid: tenant.nid, projectId: tenant.project.id }, caller, base: tenant.base };
}

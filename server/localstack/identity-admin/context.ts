import type { FastifyRequest } from 'fastify';
import type { LocalStackContext } from '../context';
import type { HashOptions } from '../identity/password';
import { authorizeAdmin, type AdminCaller } from './auth';
import { tenantForSlug, type Tenant } from './tenant';

/** What the admin routes need from the stack. */
export interface AdminDeps {
  ctx: LocalStackContext;
  /** Argon2id cost for passwords set through the admin API (the stack's own setting). */
  hash: HashOptions;
  /** How far `extend` moves a session's expiry. */
  sessionLifespanMs: number;
}

export interface AdminRequest {
  tenant: Tenant;
  caller: AdminCaller;
  /** The tenant's public base URL (`…/project-api/{slug}`), for schema_url. */
  base: string;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Resolves the tenant of `/project-api/{slug}` and authorizes the caller for the request's method. */
export async function adminRequest(deps: AdminDeps, req: FastifyRequest): Promise<AdminRequest> {
  const slug = (req.params as { slug?: string }).slug ?? '';
  const tenant = await tenantForSlug(deps.ctx.db, SLUG.test(slug) ? slug : '');
  const caller = await authorizeAdmin(deps.ctx.db, req, tenant);
  return { tenant, caller, base: `${deps.ctx.publicUrl()}/project-api/${tenant.slug}` };
}

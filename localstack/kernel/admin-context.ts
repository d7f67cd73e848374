import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LocalStackContext } from './context';
import type { HashOptions } from './hash-options';
import { tenantOf } from './tenant';
import { authorizeAdmin, permissionFor, type AdminCaller } from './admin-auth';

/** What the admin routes need from the stack. */
export interface AdminDeps {
  ctx: LocalStackContext;
  /** Argon2id cost for passwords set through the admin API (the stack's own setting). */
  hash: HashOptions;
  /** How far `extend` moves a session's expiry. */
  sessionLifespanMs: number;
  /** How long an admin-issued recovery link or code (and its flow) stays valid unless the call says (1 h, as Kratos). */
  linkLifespanMs?: number;
  codeLifespanMs?: number;
}

export interface AdminRequest {
  tenant: { nid: string; projectId: string };
  caller: AdminCaller;
  /** The tenant's public base URL (`…/project-api/{slug}`), for schema_url. */
  base: string;
}

const admins = new WeakMap<FastifyRequest, AdminRequest>();

/**
 * Authorizes every request of `scope` before its schemas are looked at (so a caller without a credential
 * learns nothing about the input it sent): the project tenant its `:slug` resolved, and the caller's
 * right to the method. New routes declare `auth: 'project-key-or-member'` instead, which does the same per
 * route and hands the handler `tenant` and `caller`; this hook stays for scopes whose routes still read
 * `adminOf(req)`. `permissionOf` names what a request needs when its method does not say it (a check sent as
 * POST is a read).
 */
export function useAdminAuthorization(
  scope: FastifyInstance,
  deps: Pick<AdminDeps, 'ctx'>,
  permissionOf: (req: FastifyRequest) => ReturnType<typeof permissionFor> = (req) => permissionFor(req.method),
): void {
  scope.addHook('preValidation', async (req) => {
    const tenant = tenantOf(req);
    if (!tenant.project) throw new Error('the admin API is only served on project tenants');
    const caller = await authorizeAdmin(deps.ctx.db, req, tenant.project, deps.ctx.clock.now(), permissionOf(req));
    admins.set(req, { tenant: { nid: tenant.nid, projectId: tenant.project.id }, caller, base: tenant.base });
  });
}

/** The authorized tenant and caller of a request of an admin scope, once its authorization ran. */
export const maybeAdminOf = (req: FastifyRequest): AdminRequest | undefined => admins.get(req);

/** The authorized tenant and caller of a request of an admin scope. */
export function adminOf(req: FastifyRequest): AdminRequest {
  const admin = admins.get(req);
  if (!admin) throw new Error(`no authorized admin caller for ${req.method} ${req.routeOptions.url ?? ''}`);
  return admin;
}

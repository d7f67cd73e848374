import type { FastifyRequest } from 'fastify';
import type { LocalStackContext } from './context';
import type { HashOptions } from '../identity/password';
import { tenantOf } from './tenant';

/** Settings of the identity provider plus the stack context. */
export interface IdentityDeps {
  ctx: LocalStackContext;
  flowLifespanMs: number;
  sessionLifespanMs: number;
  codeLifespanMs: number;
  /** How long after signing in a session may change its password or email. */
  privilegedSessionMs: number;
  hash: HashOptions;
}

/** The public base URL of the request's tenant. */
export const baseOf = (_deps: IdentityDeps, req: FastifyRequest) => tenantOf(req).base;
export const isSecure = (_deps: IdentityDeps, req: FastifyRequest) => tenantOf(req).base.startsWith('https:');

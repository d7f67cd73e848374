import type { FastifyRequest } from 'fastify';
import type { LocalStackContext } from '../context';
import { publicBase } from './http';
import type { HashOptions } from './password';

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

export const baseOf = (deps: IdentityDeps, req: FastifyRequest) => publicBase(req, deps.ctx.publicUrl());
export const isSecure = (deps: IdentityDeps, req: FastifyRequest) => baseOf(deps, req).startsWith('https:');

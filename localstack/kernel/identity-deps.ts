import type { FastifyRequest } from 'fastify';
import type { LocalStackContext } from './context';
import type { HashOptions } from './hash-options';
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
  /** The project's identity web hooks (`selfservice.flows.<flow>.before|after`), as the flows call them. */
  hooks: FlowHooks;
}

/** What an interrupting web hook puts on a flow: messages per instance pointer (`#/traits/email`, `#/`). */
export type HookStop = { pointer: string; messages: { id: number; text: string; type: 'info' | 'error'; context?: Record<string, unknown> }[] }[];

/**
 * The flows' side of a project's identity web hooks. `before` runs as a flow is created and throws the
 * refusal when a hook interrupts; `afterInterrupting` runs before a flow's outcome is stored and answers
 * the messages that stop it, or null; `afterNotifying` tells the other hooks once it is stored.
 */
export interface FlowHooks {
  before(req: FastifyRequest, nid: string, flow: HookFlowKind, flowType: 'browser' | 'api'): Promise<void>;
  afterInterrupting(req: FastifyRequest, nid: string, flow: HookFlowKind, method: string, flowJson: unknown, identity: unknown): Promise<HookStop | null>;
  afterNotifying(req: FastifyRequest, nid: string, flow: HookFlowKind, method: string, flowJson: unknown, identity: unknown): Promise<void>;
}
export type HookFlowKind = 'login' | 'registration' | 'settings' | 'recovery' | 'verification';

/** The public base URL of the request's tenant. */
export const baseOf = (_deps: IdentityDeps, req: FastifyRequest) => tenantOf(req).base;
export const isSecure = (_deps: IdentityDeps, req: FastifyRequest) => tenantOf(req).base.startsWith('https:');

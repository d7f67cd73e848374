import type { FastifyRequest } from 'fastify';
import type { LocalStackContext } from '../kernel/context';
import { OryError } from '../kernel/errors';
import type { FlowHooks } from '../kernel/identity-deps';
import { tenantIdentityConfig } from '../kernel/tenant-config';
import { afterHooks, beforeHooks, type HookFlow, type WebHook } from './config';
import { runWebHooks } from './run';

/** The request headers a hook sees (Kratos' default allowlist, less anything that carries a credential). */
const ALLOWED_HEADERS = ['accept', 'accept-encoding', 'accept-language', 'content-length', 'content-type', 'origin', 'referer', 'user-agent', 'x-forwarded-for', 'true-client-ip'];

/**
 * The JSON a hook receives: Kratos' Jsonnet context (`ctx.flow`, `ctx.identity`, `ctx.request_headers`,
 * `ctx.request_method`, `ctx.request_url`). The local stack does not evaluate a hook's Jsonnet `body`: it sends
 * this context itself, so the hook gets what a body template would read from.
 */
export function hookPayload(req: FastifyRequest, flow: unknown, identity: unknown): { ctx: Record<string, unknown> } {
  const headers: Record<string, string[]> = {};
  for (const name of ALLOWED_HEADERS) {
    const v = req.headers[name];
    if (v !== undefined) headers[name.replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => d + c.toUpperCase())] = Array.isArray(v) ? v : [String(v)];
  }
  return {
    ctx: {
      flow,
      ...(identity ? { identity } : {}),
      request_headers: headers,
      request_method: req.method,
      request_url: `${req.protocol}://${req.host}${req.url}`,
    },
  };
}

/** The flows' web hooks of the local stack: read from the tenant's identity config on every call, so a saved hook applies at once. */
export function createFlowHooks(ctx: LocalStackContext): FlowHooks {
  const deps = { db: ctx.db, now: () => ctx.clock.now(), log: ctx.log };
  const config = (nid: string) => tenantIdentityConfig(ctx.db, nid);
  const split = async (nid: string, flow: HookFlow, method: string): Promise<{ interrupting: WebHook[]; notifying: WebHook[] }> => {
    const hooks = afterHooks(await config(nid), flow, method);
    return { interrupting: hooks.filter((h) => h.interrupts && !h.ignore), notifying: hooks.filter((h) => !h.interrupts || h.ignore) };
  };
  return {
    async before(req, nid, flow, flowType) {
      const hooks = beforeHooks(await config(nid), flow);
      if (hooks.length === 0) return;
      const stop = await runWebHooks(deps, nid, hooks, hookPayload(req, { type: flowType, request_url: `${req.protocol}://${req.host}${req.url}` }, null));
      if (stop) {
        const texts = stop.flatMap((s) => s.messages.map((m) => m.text));
        throw new OryError(400, { id: 'self_service_flow_hook_interrupted', reason: texts.join(' '), message: 'a webhook target returned an error', details: { messages: stop } });
      }
    },
    async afterInterrupting(req, nid, flow, method, flowJson, identity) {
      const { interrupting } = await split(nid, flow, method);
      return interrupting.length === 0 ? null : runWebHooks(deps, nid, interrupting, hookPayload(req, flowJson, identity));
    },
    async afterNotifying(req, nid, flow, method, flowJson, identity) {
      const { notifying } = await split(nid, flow, method);
      if (notifying.length > 0) await runWebHooks(deps, nid, notifying, hookPayload(req, flowJson, identity));
    },
  };
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/types';
import { z } from 'zod';
import { route } from '../kernel/route';
import { submitBodySchema, type SubmitBody } from './body';
import { checkCsrf, checkFlowCsrf, issueCsrfToken } from './csrf';
import { baseOf, isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { flowNotFound, OryError } from '../kernel/errors';
import { createFlow, flowJson, isExpired, loadFlow, saveFlow, type FlowKind, type FlowRow, type FlowUi } from './flows';
import { browserLocationChange, checkReturnTo, isJsonRequest, queryValue, seeOther, uiLink } from '../kernel/http';
import { RATE_LIMITED_FLOWS, submittedIdentifier, type FlowLimiter } from './rate-limit';
import { currentSession, type SessionRow } from '../session/token';
import { tenantOf, type Tenant } from '../kernel/tenant';
import { texts } from './texts';
import { identitySettings, type IdentitySettings, type UiFlowKind } from '../kernel/identity-settings';

/**
 * The page of the tenant's UI for a flow kind: the project's `selfservice.flows.{kind}.ui_url` when it set
 * one, else the tenant's own UI (`{uiUrl}/{kind}`), with `query` added.
 */
export function flowUiLink(tenant: Tenant, settings: IdentitySettings, kind: UiFlowKind, query: Record<string, string | undefined> = {}): string {
  const own = settings.uiUrls[kind];
  if (!own) return uiLink(tenant.uiUrl, `/${kind}`, query);
  const url = new URL(own);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

export interface FlowInit {
  state: string;
  ui: FlowUi;
  identityId?: string | null;
  data?: Record<string, unknown>;
}

export interface SubmitArgs {
  req: FastifyRequest;
  reply: FastifyReply;
  flow: FlowRow;
  body: SubmitBody;
  db: Db;
  /** The tenant the flow belongs to (the request's). */
  tenant: Tenant;
  base: string;
  session: SessionRow | null;
  /** The stack's clock time of the submit: codes, sessions and expiry read it, never the wall clock. */
  now: Date;
  /** What the tenant's identity config says the flows do. */
  settings: IdentitySettings;
}

/** What a submit produced: the flow again (200/400), a success body, or a browser navigation. */
export type Outcome =
  | { type: 'flow'; status: 200 | 400; redirect?: string }
  | { type: 'json'; body: Record<string, unknown>; redirect: string; status?: 200 | 400 }
  | { type: 'location'; to: string };

export interface FlowHandler {
  kind: FlowKind;
  /** The refusal of a flow the tenant's config turned off (Kratos' "… is not allowed because it was disabled."). */
  disabled?(settings: IdentitySettings): OryError | null;
  /** The flow's lifespan when the tenant's config sets one for this kind. */
  lifespanMs?(settings: IdentitySettings): number | null;
  /** Checks that may refuse creating a flow (e.g. an existing session); may throw OryError. */
  guardCreate?(req: FastifyRequest, session: SessionRow | null, returnTo: string | undefined): void;
  /** Who may read or submit an existing flow. */
  guardAccess?(flow: FlowRow, session: SessionRow | null): void;
  /** The error a signed-in caller gets on submitting this flow (login without refresh, registration). */
  refuseSignedIn?(flow: FlowRow): OryError | null;
  /** Also offer the flow to native apps at /self-service/{kind}/api (no cookies; sign-ins end in a session token). */
  api?: boolean;
  init(args: { req: FastifyRequest; tenant: Tenant; csrf: string; session: SessionRow | null; prior?: FlowRow; settings: IdentitySettings }): Promise<FlowInit>;
  submit(args: SubmitArgs): Promise<Outcome>;
}

/** The request's session (session/token.ts), for the callers that take it from the flows: hosted pages, OAuth2 sign-in, OIDC. */
export { currentSession };

/** Query parameters of the flow routes; others a flow reads itself (`refresh`, `aal`, …) pass through. */
const createQuery = z.looseObject({ return_to: queryValue, refresh: queryValue });
const getFlowQuery = z.looseObject({ id: queryValue });
const submitQuery = z.looseObject({ flow: queryValue });

/**
 * The four routes of one self-service flow kind, declared with the local stack's route helper: public
 * (the flow resolves the tenant's session itself), schemas for query and body, and no enclosing
 * transaction, since attempt counters and rate limits must stay counted when a submission fails.
 */
export function registerFlow(app: FastifyInstance, deps: IdentityDeps, h: FlowHandler, limiter: FlowLimiter): void {
  const { db } = deps.ctx;
  const ctx = deps.ctx;
  const uiFlow = (tenant: Tenant, settings: IdentitySettings, flow: FlowRow) => flowUiLink(tenant, settings, h.kind, { flow: flow.id });
  const lifespanOf = (settings: IdentitySettings) => h.lifespanMs?.(settings) ?? deps.flowLifespanMs;
  /** The tenant's settings, refusing a flow kind its config turned off. */
  async function settingsFor(tenant: Tenant): Promise<IdentitySettings> {
    const settings = await identitySettings(db, tenant.nid);
    const off = h.disabled?.(settings);
    if (off) throw off;
    return settings;
  }

  async function newFlow(req: FastifyRequest, reply: FastifyReply, returnTo: string | undefined, session: SessionRow | null, settings: IdentitySettings, prior?: FlowRow) {
    const tenant = tenantOf(req);
    await deps.hooks.before(req, tenant.nid, h.kind, 'browser');
    const csrf = issueCsrfToken(req, reply, tenant, isSecure(deps, req));
    const init = await h.init({ req, tenant, csrf, session, settings, ...(prior ? { prior } : {}) });
    return createFlow(db, {
      nid: tenant.nid,
      kind: h.kind,
      state: init.state,
      csrfToken: csrf,
      requestUrl: prior?.request_url ?? `${tenant.base}${tenant.path}`,
      returnTo: returnTo ?? null,
      identityId: init.identityId ?? null,
      ui: init.ui,
      data: init.data ?? {},
      lifespanMs: lifespanOf(settings),
      now: ctx.clock.now(),
    });
  }

  route(app, ctx, {
    method: 'GET',
    url: `/self-service/${h.kind}/browser`,
    query: createQuery,
    auth: 'public',
    handler: async ({ req, reply, query }) => {
      const tenant = tenantOf(req);
      const { uiUrl } = tenant;
      const settings = await settingsFor(tenant);
      const session = await currentSession(db, tenant, req, ctx.clock.now());
      const returnTo = checkReturnTo(query.return_to, uiUrl, settings.allowedReturnUrls);
      try {
        h.guardCreate?.(req, session, returnTo);
      } catch (err) {
        if (!isJsonRequest(req) && err instanceof OryError && err.body.error.id === 'session_already_available') {
          return seeOther(reply, returnTo ?? settings.defaultReturnUrl ?? uiLink(uiUrl, '/'));
        }
        if (!isJsonRequest(req) && err instanceof OryError && err.status === 401) {
          return seeOther(reply, flowUiLink(tenant, settings, 'login', { return_to: flowUiLink(tenant, settings, h.kind as UiFlowKind) }));
        }
        throw err;
      }
      const flow = await newFlow(req, reply, returnTo, session, settings);
      if (!isJsonRequest(req)) return seeOther(reply, uiFlow(tenant, settings, flow));
      return reply.code(200).send(await flowJson(db, flow, baseOf(deps, req)));
    },
  });

  if (h.api) {
    route(app, ctx, {
      method: 'GET',
      url: `/self-service/${h.kind}/api`,
      query: z.looseObject({}),
      auth: 'public',
      handler: async ({ req, reply }) => {
        const tenant = tenantOf(req);
        const settings = await settingsFor(tenant);
        const session = await currentSession(db, tenant, req, ctx.clock.now());
        h.guardCreate?.(req, session, undefined);
        await deps.hooks.before(req, tenant.nid, h.kind, 'api');
        const init = await h.init({ req, tenant, csrf: '', session, settings });
        const flow = await createFlow(db, {
          nid: tenant.nid,
          kind: h.kind,
          type: 'api',
          state: init.state,
          csrfToken: '',
          requestUrl: `${tenant.base}${tenant.path}`,
          identityId: init.identityId ?? null,
          ui: { ...init.ui, nodes: init.ui.nodes.filter((n) => (n.attributes as { name?: string }).name !== 'csrf_token') },
          data: init.data ?? {},
          lifespanMs: lifespanOf(settings),
          now: ctx.clock.now(),
        });
        return reply.code(200).send(await flowJson(db, flow, baseOf(deps, req)));
      },
    });
  }

  route(app, ctx, {
    method: 'GET',
    url: `/self-service/${h.kind}/flows`,
    query: getFlowQuery,
    auth: 'public',
    handler: async ({ req, reply, query }) => {
      const tenant = tenantOf(req);
      const flow = await loadFlow(db, tenant.nid, query.id, h.kind);
      if (!flow) throw flowNotFound();
      h.guardAccess?.(flow, await currentSession(db, tenant, req, ctx.clock.now()));
      if (flow.type === 'browser') checkFlowCsrf(req, flow.csrf_token, tenant);
      if (isExpired(flow, ctx.clock.now())) {
        throw new OryError(410, {
          id: 'self_service_flow_expired',
          reason: `The ${h.kind} flow has expired. Redirect the user to the ${h.kind} flow init endpoint to initialize a new ${h.kind} flow.`,
          message: 'self-service flow expired',
          details: { redirect_to: `${baseOf(deps, req)}/self-service/${h.kind}/browser`, return_to: flow.return_to ?? '' },
        });
      }
      return reply.code(200).send(await flowJson(db, flow, baseOf(deps, req)));
    },
  });

  route(app, ctx, {
    method: 'POST',
    url: `/self-service/${h.kind}`,
    query: submitQuery,
    body: submitBodySchema,
    auth: 'public',
    transaction: false,
    handler: async ({ req, reply, query, body }) => {
      const tenant = tenantOf(req);
      const flowId = query.flow;
      if (!flowId) throw new OryError(400, { reason: 'The flow query parameter is missing or malformed.' });
      const flow = await loadFlow(db, tenant.nid, flowId, h.kind);
      if (!flow) throw flowNotFound();
      const settings = await settingsFor(tenant);
      // API flows always answer JSON.
      const json = isJsonRequest(req) || flow.type === 'api';
      const session = await currentSession(db, tenant, req, ctx.clock.now());
      h.guardAccess?.(flow, session);
      const signedIn = session ? h.refuseSignedIn?.(flow) : null;
      if (signedIn) {
        if (!json) return seeOther(reply, uiLink(tenant.uiUrl, '/'));
        throw signedIn;
      }
      if (flow.type === 'browser') checkCsrf(req, body.csrf_token, tenant);
      const base = baseOf(deps, req);
      const now = ctx.clock.now();
      if (isExpired(flow, now)) {
        const expiredAgo = now.getTime() - new Date(flow.expires_at).getTime();
        const fresh = await newFlow(req, reply, flow.return_to ?? undefined, session, settings, flow);
        fresh.ui.messages = [texts.flowExpired(h.kind, expiredAgo, now)];
        await saveFlow(db, fresh, now);
        if (!json) return seeOther(reply, uiFlow(tenant, settings, fresh));
        throw new OryError(410, {
          id: 'self_service_flow_expired',
          reason: `The self-service flow expired ${(expiredAgo / 60_000).toFixed(2)} minutes ago, initialize a new one.`,
          message: 'self-service flow expired',
          extra: { expired_at: new Date(flow.expires_at).toISOString(), since: expiredAgo * 1e6, use_flow_id: fresh.id },
        });
      }
      const limited = RATE_LIMITED_FLOWS.has(h.kind);
      if (limited) await limiter.admit(req, reply, tenant.nid, h.kind, submittedIdentifier(h.kind, body, flow.data.email));
      const outcome = await h.submit({ req, reply, flow, body, db, tenant, base, session, now, settings });
      const succeeded = outcome.type !== 'flow' || (outcome.status === 200 && flow.state === 'passed_challenge');
      if (limited && !succeeded) await limiter.failed(req, tenant.nid, h.kind);
      if (outcome.type === 'location') {
        if (!json) return seeOther(reply, outcome.to);
        throw browserLocationChange(outcome.to);
      }
      if (outcome.type === 'json') {
        if (!json) return seeOther(reply, outcome.redirect);
        return reply.code(outcome.status ?? 200).send(outcome.body);
      }
      await saveFlow(db, flow, ctx.clock.now());
      if (!json) return seeOther(reply, outcome.redirect ?? uiFlow(tenant, settings, flow));
      return reply.code(outcome.status).send(await flowJson(db, flow, base));
    },
  });
}

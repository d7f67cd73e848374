import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { IdentityDeps } from '../kernel/identity-deps';
import { baseOf } from '../kernel/identity-deps';
import { flowNotFound, OryError } from '../kernel/errors';
import { flowUiLink, type FlowHandler, type Outcome, type SubmitArgs } from './flow-routes';
import { queryValue, seeOther, uiLink } from '../kernel/http';
import { identitySettings, returnUrlAfter } from '../kernel/identity-settings';
import { findByVerifiableAddress, getTraits, markAddressSent, markAddressVerified } from '../identity/store';
import { addNodeMessage, anchor, chooseCodeNodes, chooseLinkNodes, csrfNode } from './nodes';
import { texts } from './texts';
import { markSent, readEmail, redeem } from './code-step';
import { notifyUnknownRecipient, sendTemplated } from '../courier/templates';
import { sendVerificationCode } from './verification-mail';
import { recordEvent } from '../event/record';
import { publicIdentity } from '../identity/service';
import { flowJson, isExpired, loadFlow, saveFlow } from './flows';
import { showHookMessages } from './hook-messages';
import { issueLinkToken, redeemCode } from './codes';
import { route } from '../kernel/route';
import { tenantOf } from '../kernel/tenant';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Email verification by a 6-digit code, or by a link (`selfservice.flows.verification.use: link`) whose
 * GET (`/self-service/verification?flow=…&token=…`) verifies the address once.
 */
export function verificationHandler(deps: IdentityDeps): FlowHandler {
  return {
    kind: 'verification',
    api: true,
    disabled: (settings) => (settings.verification.enabled ? null : new OryError(400, { reason: 'Verification is not allowed because it was disabled.' })),
    lifespanMs: (settings) => settings.verification.lifespanMs,
    async init({ csrf, settings }) {
      return { state: 'choose_method', ui: { nodes: settings.verification.use === 'link' ? chooseLinkNodes(csrf) : chooseCodeNodes(csrf) } };
    },
    async submit(args) {
      const { flow, body, db, tenant } = args;
      if (flow.state === 'passed_challenge') {
        flow.ui.messages = [texts.retrySuccess('verification')];
        return { type: 'flow', status: 400 };
      }
      if (args.settings.verification.use === 'link' && flow.type === 'browser') return sendLink(deps, args);
      if (body.method !== undefined && body.method !== 'code') {
        flow.ui.messages = [texts.noStrategy('verification')];
        return { type: 'flow', status: 400 };
      }
      if (flow.state === 'sent_email' && body.code) {
        const found = await redeem(args, 'verification');
        if (!found) return { type: 'flow', status: 400 };
        return { type: 'flow', status: (await completeVerification(deps, args, found, 'code')) ? 200 : 400 };
      }
      const email = readEmail(args);
      if (!email) return { type: 'flow', status: 400 };
      const identityId = await findByVerifiableAddress(db, tenant.nid, email);
      if (identityId) await db.tx((q) => sendVerificationCode(deps, q, tenant.nid, flow.id, identityId, email, flow.request_url));
      else await db.tx((q) => notifyUnknownRecipient(deps, q, tenant.nid, 'verification', email, flow.request_url));
      await markSent(args, 'verification', email);
      return { type: 'flow', status: 200 };
    },
  };
}

type CompleteArgs = Pick<SubmitArgs, 'req' | 'flow' | 'db' | 'tenant' | 'base' | 'settings'>;

/**
 * The end of a verification by code or link: the project's interrupting `after` web hooks may refuse it (their
 * messages on the flow, false); else the address counts as verified and the flow offers to continue.
 */
async function completeVerification(deps: IdentityDeps, args: CompleteArgs, found: { identityId: string; address: string }, method: 'code' | 'link'): Promise<boolean> {
  const { flow, db, tenant } = args;
  const verifying = await publicIdentity(db, tenant.nid, found.identityId, args.base);
  const stop = await deps.hooks.afterInterrupting(args.req, tenant.nid, 'verification', method, await flowJson(db, flow, args.base), verifying);
  if (stop) {
    showHookMessages(flow.ui, stop);
    return false;
  }
  await markAddressVerified(db, tenant.nid, found.identityId, found.address);
  await recordEvent(db, deps.ctx.clock, tenant.nid, 'VerificationSucceeded', { identity_id: found.identityId, method, flow_type: flow.type });
  await deps.hooks.afterNotifying(args.req, tenant.nid, 'verification', method, await flowJson(db, flow, args.base), await publicIdentity(db, tenant.nid, found.identityId, args.base));
  flow.state = 'passed_challenge';
  flow.ui.messages = [texts.verificationSuccessful()];
  flow.ui.nodes = [
    csrfNode(flow.csrf_token),
    // Kratos' ContinueURL: the flow's return_to, else `selfservice.flows.verification.after.default_browser_return_url`, else the default.
    anchor(method, 'continue', flow.return_to ?? returnUrlAfter(args.settings, 'verification') ?? uiLink(tenant.uiUrl, '/'), texts.labelContinue()),
  ];
  return true;
}

/**
 * Verification by link: the address gets the `verification` email whose link verifies it once; the flow
 * stays on the address form and says a link was sent, whether or not an account has the address.
 */
async function sendLink(deps: IdentityDeps, args: SubmitArgs): Promise<Outcome> {
  const { flow, body, db, tenant, base } = args;
  const raw = body.email?.trim() ?? '';
  flow.ui.nodes = chooseLinkNodes(flow.csrf_token, raw);
  flow.ui.messages = [];
  if (body.method !== undefined && body.method !== 'link') {
    flow.ui.messages = [texts.noStrategy('verification')];
    return { type: 'flow', status: 400 };
  }
  if (!raw) addNodeMessage(flow.ui.nodes, 'email', texts.required('email'));
  else if (!EMAIL.test(raw)) addNodeMessage(flow.ui.nodes, 'email', texts.invalidEmail(raw));
  if (!raw || !EMAIL.test(raw)) return { type: 'flow', status: 400 };
  const email = raw.toLowerCase();
  const lifespanMs = args.settings.verification.lifespanMs ?? deps.codeLifespanMs;
  const identityId = await findByVerifiableAddress(db, tenant.nid, email);
  await db.tx(async (q) => {
    if (!identityId) return notifyUnknownRecipient(deps, q, tenant.nid, 'verification', email, flow.request_url);
    const token = await issueLinkToken(q, { nid: tenant.nid, flowId: flow.id, identityId, address: email, lifespanMs, now: deps.ctx.clock.now(), kind: 'verification' });
    const link = new URL(`${base}/self-service/verification`);
    link.search = new URLSearchParams({ flow: flow.id, token }).toString();
    await markAddressSent(q, tenant.nid, identityId, email);
    const traits = (await getTraits(q, tenant.nid, identityId)) ?? { email };
    await sendTemplated(deps, q, tenant.nid, {
      to: email,
      template: 'verification',
      variant: 'valid',
      data: { VerificationURL: link.toString(), Identity: { id: identityId, traits }, ExpiresInMinutes: Math.round(lifespanMs / 60_000), RequestURL: flow.request_url, TransientPayload: {} },
    });
  });
  flow.state = 'sent_email';
  flow.data.email = email;
  flow.ui.messages = [texts.verificationLinkSent()];
  return { type: 'flow', status: 200 };
}

const linkQuery = z.looseObject({ flow: queryValue, token: queryValue });

/**
 * GET /self-service/verification?flow=…&token=…: the link of a verification email. A valid token verifies the
 * address; the browser lands on the project's verification page, whose flow says so and offers to continue,
 * or says the link is invalid or used.
 */
export function registerVerificationLink(app: FastifyInstance, deps: IdentityDeps): void {
  const { db } = deps.ctx;
  route(app, deps.ctx, {
    method: 'GET',
    url: '/self-service/verification',
    query: linkQuery,
    auth: 'public',
    transaction: false,
    handler: async ({ req, reply, query }) => {
      const tenant = tenantOf(req);
      if (!query.flow || !query.token) {
        throw new OryError(400, { reason: 'The verification link needs both its flow and token query parameters; open the whole link.' });
      }
      const flow = await loadFlow(db, tenant.nid, query.flow, 'verification');
      if (!flow) throw flowNotFound();
      const settings = await identitySettings(db, tenant.nid);
      const now = deps.ctx.clock.now();
      const found =
        isExpired(flow, now) || flow.state === 'passed_challenge' ? null : await db.tx((q) => redeemCode(q, tenant.nid, flow.id, 'verification', query.token!, now));
      if (found) await completeVerification(deps, { req, flow, db, tenant, base: baseOf(deps, req), settings }, found, 'link');
      else if (flow.state !== 'passed_challenge') flow.ui.messages = [texts.verificationLinkInvalid()];
      await saveFlow(db, flow, now);
      return seeOther(reply, flowUiLink(tenant, settings, 'verification', { flow: flow.id }));
    },
  });
}

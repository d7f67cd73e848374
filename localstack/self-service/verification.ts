import type { IdentityDeps } from '../kernel/identity-deps';
import { OryError } from '../kernel/errors';
import type { FlowHandler } from './flow-routes';
import { uiLink } from '../kernel/http';
import { returnUrlAfter } from '../kernel/identity-settings';
import { findByVerifiableAddress, markAddressVerified } from '../identity/store';
import { anchor, chooseCodeNodes, csrfNode } from './nodes';
import { texts } from './texts';
import { markSent, readEmail, redeem } from './code-step';
import { notifyUnknownRecipient } from '../courier/templates';
import { sendVerificationCode } from './verification-mail';
import { recordEvent } from '../event/record';
import { publicIdentity } from '../identity/service';
import { flowJson } from './flows';
import { showHookMessages } from './hook-messages';

/** Email verification by a 6-digit code. */
export function verificationHandler(deps: IdentityDeps): FlowHandler {
  return {
    kind: 'verification',
    api: true,
    disabled: (settings) => (settings.verification.enabled ? null : new OryError(400, { reason: 'Verification is not allowed because it was disabled.' })),
    lifespanMs: (settings) => settings.verification.lifespanMs,
    async init({ csrf }) {
      return { state: 'choose_method', ui: { nodes: chooseCodeNodes(csrf) } };
    },
    async submit(args) {
      const { flow, body, db, tenant } = args;
      if (flow.state === 'passed_challenge') {
        flow.ui.messages = [texts.retrySuccess('verification')];
        return { type: 'flow', status: 400 };
      }
      if (body.method !== undefined && body.method !== 'code') {
        flow.ui.messages = [texts.noStrategy('verification')];
        return { type: 'flow', status: 400 };
      }
      if (flow.state === 'sent_email' && body.code) {
        const found = await redeem(args, 'verification');
        if (!found) return { type: 'flow', status: 400 };
        // The project's `after` web hooks: an interrupting one's messages refuse the verification before the address counts as verified.
        const verifying = await publicIdentity(db, tenant.nid, found.identityId, args.base);
        const stop = await deps.hooks.afterInterrupting(args.req, tenant.nid, 'verification', 'code', await flowJson(db, flow, args.base), verifying);
        if (stop) {
          showHookMessages(flow.ui, stop);
          return { type: 'flow', status: 400 };
        }
        await markAddressVerified(db, tenant.nid, found.identityId, found.address);
        await recordEvent(db, deps.ctx.clock, tenant.nid, 'VerificationSucceeded', { identity_id: found.identityId, method: 'code', flow_type: flow.type });
        await deps.hooks.afterNotifying(args.req, tenant.nid, 'verification', 'code', await flowJson(db, flow, args.base), await publicIdentity(db, tenant.nid, found.identityId, args.base));
        flow.state = 'passed_challenge';
        flow.ui.messages = [texts.verificationSuccessful()];
        flow.ui.nodes = [
          csrfNode(flow.csrf_token),
          // Kratos' ContinueURL: the flow's return_to, else `selfservice.flows.verification.after.default_browser_return_url`, else the default.
          anchor('code', 'continue', flow.return_to ?? returnUrlAfter(args.settings, 'verification') ?? uiLink(tenant.uiUrl, '/'), texts.labelContinue()),
        ];
        return { type: 'flow', status: 200 };
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

import type { IdentityDeps } from './deps';
import type { FlowHandler } from './flow-routes';
import { uiLink } from './http';
import { anchor, chooseCodeNodes, csrfNode } from './nodes';
import { texts } from './texts';
import { markSent, readEmail, redeem } from './code-step';
import { sendVerificationCode } from './verification-mail';

/** Email verification by a 6-digit code. */
export function verificationHandler(deps: IdentityDeps): FlowHandler {
  return {
    kind: 'verification',
    async init({ csrf }) {
      return { state: 'choose_method', ui: { nodes: chooseCodeNodes(csrf) } };
    },
    async submit(args) {
      const { flow, body, db } = args;
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
        await db.query(
          `UPDATE identity_verifiable_addresses SET verified = true, status = 'completed', verified_at = now(), updated_at = now()
            WHERE identity_id = $1 AND value = $2`,
          [found.identityId, found.address],
        );
        flow.state = 'passed_challenge';
        flow.ui.messages = [texts.verificationSuccessful()];
        flow.ui.nodes = [
          csrfNode(flow.csrf_token),
          anchor('code', 'continue', flow.return_to ?? uiLink(deps.ctx.uiUrl, '/'), texts.labelContinue()),
        ];
        return { type: 'flow', status: 200 };
      }
      const email = readEmail(args);
      if (!email) return { type: 'flow', status: 400 };
      const [address] = await db.query<{ identity_id: string }>(
        `SELECT identity_id FROM identity_verifiable_addresses WHERE via = 'email' AND value = $1`,
        [email],
      );
      if (address) await db.tx((q) => sendVerificationCode(deps, q, flow.id, address.identity_id, email));
      await markSent(args, 'verification', email);
      return { type: 'flow', status: 200 };
    },
  };
}

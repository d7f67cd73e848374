import { issueCode } from './codes';
import { notifyUnknownRecipient, sendTemplated } from '../courier/templates';
import { isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { sessionAlreadyAvailable } from '../kernel/errors';
import type { FlowHandler, Outcome, SubmitArgs } from './flow-routes';
import { createFlow, flowJson, markPassed, saveFlow } from './flows';
import { uiLink } from '../kernel/http';
import { findByRecoveryAddress, getTraits, markAddressVerified } from '../identity/store';
import { chooseCodeNodes, settingsNodes } from './nodes';
import { ownIdentitySchema, schemaSettingsNodes } from './schema-nodes';
import { issueSession, setSessionCookie } from '../session/service';
import { recordEvent } from '../event/record';
import { texts } from './texts';
import { markSent, readEmail, redeem } from './code-step';

/** Account recovery by a 6-digit code sent to the recovery address; ends in a settings flow. */
export function recoveryHandler(deps: IdentityDeps): FlowHandler {
  return {
    kind: 'recovery',
    api: true,
    guardCreate(_req, session) {
      if (session) throw sessionAlreadyAvailable('recovery');
    },
    async init({ csrf }) {
      return { state: 'choose_method', ui: { nodes: chooseCodeNodes(csrf) } };
    },
    async submit(args) {
      const { flow, body, db, tenant } = args;
      if (flow.state === 'passed_challenge') {
        flow.ui.messages = [texts.retrySuccess('recovery')];
        return { type: 'flow', status: 400 };
      }
      if (body.method !== undefined && body.method !== 'code') {
        flow.ui.messages = [texts.noStrategy('recovery')];
        return { type: 'flow', status: 400 };
      }
      if (flow.state === 'sent_email' && body.code) {
        const found = await redeem(args, 'recovery');
        if (!found) return { type: 'flow', status: 400 };
        return completeRecovery(deps, args, found, 'code_recovery');
      }
      const email = readEmail(args);
      if (!email) return { type: 'flow', status: 400 };
      const identityId = await findByRecoveryAddress(db, tenant.nid, email);
      await db.tx(async (q) => {
        if (!identityId) return notifyUnknownRecipient(deps, q, tenant.nid, 'recovery', email, flow.request_url);
        const code = await issueCode(q, {
          nid: tenant.nid,
          flowId: flow.id,
          kind: 'recovery',
          identityId,
          address: email,
          lifespanMs: deps.codeLifespanMs,
          now: deps.ctx.clock.now(),
        });
        const traits = (await getTraits(q, tenant.nid, identityId)) ?? { email };
        await sendTemplated(deps, q, tenant.nid, {
          to: email,
          template: 'recovery_code',
          variant: 'valid',
          data: {
            RecoveryCode: code,
            Identity: { id: identityId, traits },
            ExpiresInMinutes: Math.round(deps.codeLifespanMs / 60_000),
            RequestURL: flow.request_url,
            TransientPayload: {},
          },
        });
      });
      await markSent(args, 'recovery', email);
      return { type: 'flow', status: 200 };
    },
  };
}

/**
 * The end of a recovery by code or by link: the address counts as verified, the identity gets a privileged
 * session and a settings flow to set a new password in (browser: a cookie and the settings page; native
 * apps: the session token and the settings flow in the answer).
 */
export async function completeRecovery(
  deps: IdentityDeps,
  args: Pick<SubmitArgs, 'req' | 'reply' | 'flow' | 'db' | 'tenant' | 'base'>,
  found: { identityId: string; address: string },
  method: 'code_recovery' | 'link_recovery',
): Promise<Outcome> {
  const { req, reply, flow, db, tenant, base } = args;
  const traits = (await getTraits(db, tenant.nid, found.identityId)) ?? { email: found.address };
  const ownSchema = await ownIdentitySchema(db, tenant.nid, found.identityId);
  const { session, settings } = await db.tx(async (q) => {
    await markPassed(q, flow);
    await markAddressVerified(q, tenant.nid, found.identityId, found.address);
    await recordEvent(q, deps.ctx.clock, tenant.nid, 'RecoverySucceeded', { identity_id: found.identityId, method, flow_type: flow.type });
    const session = await issueSession(q, req, tenant.nid, found.identityId, method, deps.sessionLifespanMs, deps.ctx.clock);
    const settings = await createFlow(q, {
      nid: tenant.nid,
      kind: 'settings',
      type: flow.type === 'api' ? 'api' : 'browser',
      state: 'show_form',
      csrfToken: flow.csrf_token,
      requestUrl: `${base}/self-service/settings/${flow.type === 'api' ? 'api' : 'browser'}`,
      returnTo: uiLink(tenant.uiUrl, '/', { 'after-recovery': 'true' }),
      identityId: found.identityId,
      ui: { nodes: ownSchema ? schemaSettingsNodes(flow.csrf_token, ownSchema, traits) : settingsNodes(flow.csrf_token, traits), messages: [texts.recoverySuccessful(deps.privilegedSessionMs)] },
      lifespanMs: deps.flowLifespanMs,
      now: deps.ctx.clock.now(),
    });
    return { session, settings };
  });
  flow.state = 'passed_challenge';
  if (flow.type === 'api') {
    // Native apps continue with the session token and the settings flow, as Kratos answers them.
    // The token is in this answer only, never stored with the flow.
    flow.ui.messages = [texts.recoverySuccessful(deps.privilegedSessionMs)];
    await saveFlow(db, flow);
    const continueWith = [
      { action: 'set_ory_session_token', ory_session_token: session.token },
      { action: 'show_settings_ui', flow: { id: settings.id } },
    ];
    return { type: 'json', redirect: '', body: { ...(await flowJson(db, flow, base)), continue_with: continueWith } };
  }
  setSessionCookie(reply, tenant, session, isSecure(deps, req));
  deps.ctx.log.info({ nid: tenant.nid, identity_id: found.identityId }, 'identity recovered its account');
  return { type: 'location', to: uiLink(tenant.uiUrl, '/settings', { flow: settings.id }) };
}

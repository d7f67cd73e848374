import { issueCode, issueLinkToken } from './codes';
import { notifyUnknownRecipient, sendTemplated } from '../courier/templates';
import { isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { OryError, sessionAlreadyAvailable } from '../kernel/errors';
import { identitySettings, type IdentitySettings } from '../kernel/identity-settings';
import { flowUiLink, type FlowHandler, type Outcome, type SubmitArgs } from './flow-routes';
import { createFlow, flowJson, markPassed, saveFlow } from './flows';
import { uiLink } from '../kernel/http';
import { findByRecoveryAddress, getTraits, markAddressVerified } from '../identity/store';
import { addNodeMessage, chooseCodeNodes, chooseLinkNodes, settingsNodes } from './nodes';
import { ownIdentitySchema, schemaSettingsNodes } from './schema-nodes';
import { issueSession, setSessionCookie } from '../session/service';
import { recordEvent } from '../event/record';
import { publicIdentity } from '../identity/service';
import { showHookMessages } from './hook-messages';
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
    disabled: (settings) => (settings.recovery.enabled ? null : new OryError(400, { reason: 'Recovery is not allowed because it was disabled.' })),
    lifespanMs: (settings) => settings.recovery.lifespanMs,
    async init({ csrf, settings }) {
      return { state: 'choose_method', ui: { nodes: settings.recovery.use === 'link' ? chooseLinkNodes(csrf) : chooseCodeNodes(csrf) } };
    },
    async submit(args) {
      const { flow, body, db, tenant, settings } = args;
      if (flow.state === 'passed_challenge') {
        flow.ui.messages = [texts.retrySuccess('recovery')];
        return { type: 'flow', status: 400 };
      }
      if (settings.recovery.use === 'link' && flow.type === 'browser') return sendLink(deps, args, settings);
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
          lifespanMs: settings.recovery.lifespanMs ?? deps.codeLifespanMs,
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
            ExpiresInMinutes: Math.round((settings.recovery.lifespanMs ?? deps.codeLifespanMs) / 60_000),
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

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Recovery by link (`selfservice.flows.recovery.use: link`): the address gets the `recovery` email whose
 * link (`/self-service/recovery?flow=…&token=…`) signs it in once; the flow stays on the address form and
 * says a link was sent, whether or not an account has the address.
 */
async function sendLink(deps: IdentityDeps, args: SubmitArgs, settings: IdentitySettings): Promise<Outcome> {
  const { flow, body, db, tenant, base } = args;
  const raw = body.email?.trim() ?? '';
  flow.ui.nodes = chooseLinkNodes(flow.csrf_token, raw);
  flow.ui.messages = [];
  if (body.method !== undefined && body.method !== 'link') {
    flow.ui.messages = [texts.noStrategy('recovery')];
    return { type: 'flow', status: 400 };
  }
  if (!raw) addNodeMessage(flow.ui.nodes, 'email', texts.required('email'));
  else if (!EMAIL.test(raw)) addNodeMessage(flow.ui.nodes, 'email', texts.invalidEmail(raw));
  if (!raw || !EMAIL.test(raw)) return { type: 'flow', status: 400 };
  const email = raw.toLowerCase();
  const lifespanMs = settings.recovery.lifespanMs ?? deps.codeLifespanMs;
  const identityId = await findByRecoveryAddress(db, tenant.nid, email);
  await db.tx(async (q) => {
    if (!identityId) return notifyUnknownRecipient(deps, q, tenant.nid, 'recovery', email, flow.request_url);
    const token = await issueLinkToken(q, { nid: tenant.nid, flowId: flow.id, identityId, address: email, lifespanMs, now: deps.ctx.clock.now() });
    const link = new URL(`${base}/self-service/recovery`);
    link.search = new URLSearchParams({ flow: flow.id, token }).toString();
    const traits = (await getTraits(q, tenant.nid, identityId)) ?? { email };
    await sendTemplated(deps, q, tenant.nid, {
      to: email,
      template: 'recovery',
      variant: 'valid',
      data: { RecoveryURL: link.toString(), Identity: { id: identityId, traits }, ExpiresInMinutes: Math.round(lifespanMs / 60_000), RequestURL: flow.request_url, TransientPayload: {} },
    });
  });
  flow.state = 'sent_email';
  flow.data.email = email;
  flow.ui.messages = [texts.recoveryLinkSent()];
  return { type: 'flow', status: 200 };
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
  // The project's `after` web hooks (flow-wide in Kratos): an interrupting one's messages refuse the recovery before a session is issued.
  const hookMethod = method === 'code_recovery' ? 'code' : 'link';
  const recovering = await publicIdentity(db, tenant.nid, found.identityId, base);
  const stop = await deps.hooks.afterInterrupting(req, tenant.nid, 'recovery', hookMethod, await flowJson(db, flow, base), recovering);
  if (stop) {
    showHookMessages(flow.ui, stop);
    return { type: 'flow', status: 400 };
  }
  // The project's session lifespan, and where the settings flow sends the browser once the new password is
  // set: the recovery's return_to, else `selfservice.flows.recovery.after.default_browser_return_url` (Kratos).
  const project = await identitySettings(db, tenant.nid);
  const { session, settings } = await db.tx(async (q) => {
    await markPassed(q, flow, deps.ctx.clock.now());
    await markAddressVerified(q, tenant.nid, found.identityId, found.address);
    await recordEvent(q, deps.ctx.clock, tenant.nid, 'RecoverySucceeded', { identity_id: found.identityId, method, flow_type: flow.type });
    const session = await issueSession(q, req, tenant.nid, found.identityId, method, project.sessionLifespanMs ?? deps.sessionLifespanMs, deps.ctx.clock);
    const settings = await createFlow(q, {
      nid: tenant.nid,
      kind: 'settings',
      type: flow.type === 'api' ? 'api' : 'browser',
      state: 'show_form',
      csrfToken: flow.csrf_token,
      requestUrl: `${base}/self-service/settings/${flow.type === 'api' ? 'api' : 'browser'}`,
      returnTo: flow.return_to ?? project.afterReturnUrls.recovery?.url ?? uiLink(tenant.uiUrl, '/', { 'after-recovery': 'true' }),
      identityId: found.identityId,
      ui: { nodes: ownSchema ? schemaSettingsNodes(flow.csrf_token, ownSchema, traits) : settingsNodes(flow.csrf_token, traits), messages: [texts.recoverySuccessful(deps.privilegedSessionMs, deps.ctx.clock.now())] },
      lifespanMs: deps.flowLifespanMs,
      now: deps.ctx.clock.now(),
    });
    return { session, settings };
  });
  flow.state = 'passed_challenge';
  await deps.hooks.afterNotifying(req, tenant.nid, 'recovery', hookMethod, await flowJson(db, flow, base), await publicIdentity(db, tenant.nid, found.identityId, base));
  if (flow.type === 'api') {
    // Native apps continue with the session token and the settings flow, as Kratos answers them.
    // The token is in this answer only, never stored with the flow.
    flow.ui.messages = [texts.recoverySuccessful(deps.privilegedSessionMs, deps.ctx.clock.now())];
    await saveFlow(db, flow, deps.ctx.clock.now());
    const continueWith = [
      { action: 'set_ory_session_token', ory_session_token: session.token },
      { action: 'show_settings_ui', flow: { id: settings.id } },
    ];
    return { type: 'json', redirect: '', body: { ...(await flowJson(db, flow, base)), continue_with: continueWith } };
  }
  setSessionCookie(reply, tenant, session, isSecure(deps, req));
  deps.ctx.log.info({ nid: tenant.nid, identity_id: found.identityId }, 'identity recovered its account');
  return { type: 'location', to: flowUiLink(tenant, project, 'settings', { flow: settings.id }) };
}

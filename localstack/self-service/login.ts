import { markPassed } from './flows';
import { clearNodeMessages, loginNodes, setValue, addNodeMessage, withoutDisabledMethods } from './nodes';
import { isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { sessionAlreadyAvailable } from '../kernel/errors';
import type { FlowHandler } from './flow-routes';
import { queryParam, uiLink } from '../kernel/http';
import { findPasswordCredential } from '../identity/store';
import { hashPassword, verifyPassword } from '../identity/password';
import { issueSession, sessionJson, setSessionCookie } from '../session/service';
import { texts } from './texts';
import { recordEvent } from '../event/record';
import { linkAfterLogin, oidcFlowNodes, organizationProvider, requestedProvider, startOidc } from './oidc';

/** Browser login with identifier (email) and password. */
export function loginHandler(deps: IdentityDeps): FlowHandler {
  // Verified against for unknown identifiers so that timing does not reveal which emails exist.
  const dummyHash = hashPassword('not-a-real-password-0', deps.hash);
  return {
    kind: 'login',
    guardCreate(req, session) {
      if (session && queryParam(req, 'refresh') !== 'true') throw sessionAlreadyAvailable('login');
    },
    api: true,
    refuseSignedIn: (flow) => (flow.data.refresh === true ? null : sessionAlreadyAvailable('login')),
    async init({ req, csrf, prior, tenant, settings }) {
      const refresh = prior ? prior.data.refresh === true : queryParam(req, 'refresh') === 'true';
      return {
        state: 'choose_method',
        ui: { nodes: withoutDisabledMethods([...loginNodes(csrf), ...(await oidcFlowNodes(deps.ctx.db, tenant.nid, 'login'))], settings) },
        data: { refresh },
      };
    },
    async submit(args) {
      const { req, reply, flow, body, db, tenant, base, settings } = args;
      const nodes = flow.ui.nodes;
      clearNodeMessages(nodes);
      flow.ui.messages = [];
      const provider = requestedProvider(body);
      if (provider) return startOidc(deps, args, provider);
      // An email of an organization's domain signs in through the organization's provider, not a password.
      if (body.method === 'identifier_first' || body.method === 'password') {
        const sso = await organizationProvider(db, tenant.nid, body.identifier);
        if (sso) return startOidc(deps, args, sso);
      }
      setValue(nodes, 'identifier', body.identifier ?? '');
      if (body.method !== 'password' || !settings.methods.password) {
        flow.ui.messages = [texts.noStrategy('login')];
        return { type: 'flow', status: 400 };
      }
      let missing = false;
      if (!body.identifier) {
        addNodeMessage(nodes, 'identifier', texts.required('identifier'));
        missing = true;
      }
      if (!body.password) {
        addNodeMessage(nodes, 'password', texts.required('password'));
        missing = true;
      }
      if (missing) return { type: 'flow', status: 400 };
      const credential = await findPasswordCredential(db, tenant.nid, body.identifier ?? '');
      const ok = credential
        ? await verifyPassword(credential.secret, body.password ?? '')
        : (await verifyPassword(await dummyHash, body.password ?? ''), false);
      if (!credential || !ok || credential.state !== 'active') {
        await recordEvent(db, deps.ctx.clock, tenant.nid, 'LoginFailed', { method: 'password', reason: 'invalid_credentials', flow_type: flow.type });
        flow.ui.messages = [texts.invalidCredentials()];
        return { type: 'flow', status: 400 };
      }
      const session = await db.tx(async (q) => {
        await markPassed(q, flow, deps.ctx.clock.now());
        await linkAfterLogin(q, flow, credential.identity_id, deps.ctx.clock.now());
        await recordEvent(q, deps.ctx.clock, tenant.nid, 'LoginSucceeded', { identity_id: credential.identity_id, method: 'password', aal: 'aal1', flow_type: flow.type });
        return issueSession(q, req, tenant.nid, credential.identity_id, 'password', settings.sessionLifespanMs ?? deps.sessionLifespanMs, deps.ctx.clock);
      });
      deps.ctx.log.info({ nid: tenant.nid, identity_id: credential.identity_id }, 'identity signed in');
      if (flow.type === 'api') {
        // Native apps get the session token itself, to send as X-Session-Token or a bearer token.
        return { type: 'json', redirect: '', body: { session_token: session.token, session: await sessionJson(db, tenant.nid, session.id, base) } };
      }
      setSessionCookie(reply, tenant, session, isSecure(deps, req));
      const redirect = flow.return_to ?? settings.defaultReturnUrl ?? uiLink(tenant.uiUrl, '/');
      return {
        type: 'json',
        redirect,
        body: {
          session: await sessionJson(db, tenant.nid, session.id, base),
          continue_with: [{ action: 'redirect_browser_to', redirect_browser_to: redirect }],
        },
      };
    },
  };
}

import { isSecure, type IdentityDeps } from './deps';
import { sessionAlreadyAvailable } from './errors';
import type { FlowHandler } from './flow-routes';
import { markPassed } from './flows';
import { uiLink } from './http';
import { createIdentity, identityJson, isUniqueViolation, normalizeEmail } from './identities';
import { addNodeMessage, clearNodeMessages, registrationNodes } from './nodes';
import { hashPassword, passwordPolicyError } from './password';
import { issueSession, sessionJson, setSessionCookie } from './sessions';
import { texts } from './texts';
import { validateTraits } from './traits';
import { startVerification } from './verification-mail';

/** Browser registration with traits {email, name} and a password; signs the new identity in. */
export function registrationHandler(deps: IdentityDeps): FlowHandler {
  return {
    kind: 'registration',
    guardCreate(_req, session) {
      if (session) throw sessionAlreadyAvailable('registration');
    },
    refuseSignedIn: () => sessionAlreadyAvailable('registration'),
    api: true,
    async init({ csrf }) {
      return { state: 'choose_method', ui: { nodes: registrationNodes(csrf) } };
    },
    async submit({ req, reply, flow, body, db, tenant, base }) {
      const nodes = flow.ui.nodes;
      clearNodeMessages(nodes);
      flow.ui.messages = [];
      const traits = validateTraits(nodes, body.traits);
      if (body.method !== 'password') {
        flow.ui.messages = [texts.noStrategy('registration')];
        return { type: 'flow', status: 400 };
      }
      const password = body.password ?? '';
      const policy = password ? passwordPolicyError(password, traits ? normalizeEmail(traits.email) : '') : texts.required('password');
      if (policy) addNodeMessage(nodes, 'password', policy);
      if (!traits || policy) return { type: 'flow', status: 400 };

      const passwordHash = await hashPassword(password, deps.hash);
      const email = normalizeEmail(traits.email);
      let result;
      try {
        result = await db.tx(async (q) => {
          const identityId = await createIdentity(q, tenant.nid, traits, passwordHash);
          await markPassed(q, flow);
          const session = await issueSession(q, req, tenant.nid, identityId, 'password', deps.sessionLifespanMs, deps.ctx.clock);
          const verification = await startVerification(deps, q, tenant, {
            csrf: flow.csrf_token,
            identityId,
            email,
            requestUrl: `${base}/self-service/verification/${flow.type === 'api' ? 'api' : 'browser'}`,
            returnTo: flow.return_to,
            type: flow.type === 'api' ? 'api' : 'browser',
          });
          return { identityId, session, verification };
        });
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        flow.ui.messages = [texts.duplicateCredentials()];
        return { type: 'flow', status: 400 };
      }
      deps.ctx.log.info({ nid: tenant.nid, identity_id: result.identityId }, 'identity registered');
      const identity = await identityJson(db, tenant.nid, result.identityId, base);
      const session = await sessionJson(db, tenant.nid, result.session.id, base);
      if (flow.type === 'api') {
        // Native apps get the session token itself (Kratos' successfulNativeRegistration).
        const token = result.session.token;
        return {
          type: 'json',
          redirect: '',
          body: {
            identity,
            session,
            session_token: token,
            continue_with: [{ action: 'set_ory_session_token', ory_session_token: token }, result.verification.continueWith],
          },
        };
      }
      setSessionCookie(reply, tenant, result.session, isSecure(deps, req));
      const redirect = flow.return_to ?? uiLink(tenant.uiUrl, '/');
      return {
        type: 'json',
        redirect,
        body: {
          identity,
          session,
          continue_with: [
            result.verification.continueWith,
            { action: 'redirect_browser_to', redirect_browser_to: redirect },
          ],
        },
      };
    },
  };
}

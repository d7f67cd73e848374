import { flowJson, markPassed } from './flows';
import { publicIdentity } from '../identity/service';
import { showHookMessages } from './hook-messages';
import { clearNodeMessages, identifiedPasswordNodes, identifierFirstNodes, loginNodes, setValue, addNodeMessage, withoutDisabledMethods } from './nodes';
import { isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { returnUrlAfter } from '../kernel/identity-settings';
import { noActiveSession, sessionAlreadyAvailable } from '../kernel/errors';
import type { FlowHandler } from './flow-routes';
import { queryParam, uiLink } from '../kernel/http';
import { findIdentity, findPasswordCredential, normalizeEmail } from '../identity/store';
import { hashPassword, verifyPassword } from '../identity/password';
import { issueSession, raiseSessionToAal2, sessionJson, setSessionCookie } from '../session/service';
import { sessionToken } from '../session/token';
import { csrfNode } from './nodes';
import { findTotpUrl, sessionRequiredForHigherAal, totpCodeValid, totpLoginNodes } from './totp';
import type { SubmitArgs, Outcome } from './flow-routes';
import { findRecoveryCodes, lookupLoginNodes, useRecoveryCode } from './lookup';
import { texts } from './texts';
import { passkeyLoginNodes, relyingParty, verifyPasskeyLogin, type PasskeyFlowData } from './passkey';
import { recordEvent } from '../event/record';
import { codeAddresses, codeIdentity, codeLoginNodes, codeSecondFactorNodes, submitCodeLogin, submitCodeSecondFactor } from './code-login';
import { securityKeyLoginNodes, verifySecurityKeyLogin, webauthnRelyingParty, type WebauthnFlowData } from './webauthn';
import { linkAfterLogin, oidcFlowNodes, organizationProvider, requestedProvider, startOidc, submitIdToken } from './oidc';
import { requestedSamlProvider, samlFlowNodes, startSaml } from './saml';

/** Browser login with identifier (email) and password; with `aal=aal2`, the second factor of a signed-in identity. */
export function loginHandler(deps: IdentityDeps): FlowHandler {
  /** The session (aal2) after a second factor, as a native app or a browser receives it. */
  async function raised(args: SubmitArgs, sessionId: string, method: string): Promise<Outcome> {
    const { req, flow, db, tenant, base, settings } = args;
    const json = await sessionJson(db, tenant.nid, sessionId, base);
    if (flow.type === 'api') return { type: 'json', redirect: '', body: { session_token: sessionToken(req, tenant.sessionCookie), session: json } };
    const redirect = flow.return_to ?? returnUrlAfter(settings, 'login', method) ?? uiLink(tenant.uiUrl, '/');
    return { type: 'json', redirect, body: { session: json, continue_with: [{ action: 'redirect_browser_to', redirect_browser_to: redirect }] } };
  }

  /** The authenticator app's code raises the flow's session to aal2 (Kratos' totp strategy). */
  async function submitTotp(args: SubmitArgs): Promise<Outcome> {
    const { flow, body, db, tenant, session } = args;
    if (!session) throw noActiveSession();
    const url = await findTotpUrl(db, tenant.nid, session.identity_id);
    if (!url) {
      flow.ui.messages = [texts.noTotpDevice()];
      return { type: 'flow', status: 400 };
    }
    if (!body.totp_code || !totpCodeValid(url, body.totp_code, args.now)) {
      await recordEvent(db, deps.ctx.clock, tenant.nid, 'LoginFailed', { method: 'totp', reason: 'invalid_credentials', flow_type: flow.type });
      flow.ui.messages = [texts.totpVerifierWrong()];
      return { type: 'flow', status: 400 };
    }
    await db.tx(async (q) => {
      await markPassed(q, flow, deps.ctx.clock.now());
      await raiseSessionToAal2(q, tenant.nid, session.id, 'totp', deps.ctx.clock);
      await recordEvent(q, deps.ctx.clock, tenant.nid, 'LoginSucceeded', { identity_id: session.identity_id, method: 'totp', aal: 'aal2', flow_type: flow.type });
    });
    return raised(args, session.id, 'totp');
  }

  /** A security key of the signed-in identity raises the flow's session to aal2 (Kratos' webauthn strategy, browser flows). */
  async function submitSecurityKey(args: SubmitArgs): Promise<Outcome> {
    const { flow, body, db, tenant, session, settings, base } = args;
    if (!session) throw noActiveSession();
    const proven = await db.tx(async (q) => {
      const ok = await verifySecurityKeyLogin(q, tenant.nid, session.identity_id, webauthnRelyingParty(settings, base), flow.data.webauthn as WebauthnFlowData | undefined, body.webauthn_login, args.now);
      if (!ok) return false;
      await markPassed(q, flow, deps.ctx.clock.now());
      await raiseSessionToAal2(q, tenant.nid, session.id, 'webauthn', deps.ctx.clock);
      await recordEvent(q, deps.ctx.clock, tenant.nid, 'LoginSucceeded', { identity_id: session.identity_id, method: 'webauthn', aal: 'aal2', flow_type: flow.type });
      return true;
    });
    if (proven) return raised(args, session.id, 'webauthn');
    await recordEvent(db, deps.ctx.clock, tenant.nid, 'LoginFailed', { method: 'webauthn', reason: 'invalid_credentials', flow_type: flow.type });
    setValue(flow.ui.nodes, 'webauthn_login', '');
    flow.ui.messages = [texts.passkeyInvalid()];
    return { type: 'flow', status: 400 };
  }

  /**
   * A backup code raises the flow's session to aal2 and is used up (Kratos' lookup strategy): a used code or
   * one that is not the identity's is the flow's message, and the code input is emptied.
   */
  async function submitLookup(args: SubmitArgs): Promise<Outcome> {
    const { flow, body, db, tenant, session } = args;
    if (!session) throw noActiveSession();
    setValue(flow.ui.nodes, 'lookup_secret', '');
    const outcome = await db.tx(async (q) => {
      const used = await useRecoveryCode(q, tenant.nid, session.identity_id, body.lookup_secret ?? '', args.now);
      if (used !== 'used') return used;
      await markPassed(q, flow, deps.ctx.clock.now());
      await raiseSessionToAal2(q, tenant.nid, session.id, 'lookup_secret', deps.ctx.clock);
      await recordEvent(q, deps.ctx.clock, tenant.nid, 'LoginSucceeded', { identity_id: session.identity_id, method: 'lookup_secret', aal: 'aal2', flow_type: flow.type });
      return used;
    });
    if (outcome === 'used') return raised(args, session.id, 'lookup_secret');
    if (outcome !== 'none') await recordEvent(db, deps.ctx.clock, tenant.nid, 'LoginFailed', { method: 'lookup_secret', reason: 'invalid_credentials', flow_type: flow.type });
    flow.ui.messages = [outcome === 'none' ? texts.noLookup() : outcome === 'already_used' ? texts.lookupAlreadyUsed() : texts.lookupInvalid()];
    return { type: 'flow', status: 400 };
  }

  /** Signs identity `identityId` in at aal1 by `method`: the session token for native apps, else the cookie and the redirect. */
  async function signedIn(args: SubmitArgs, identityId: string, method: 'password' | 'passkey' | 'code'): Promise<Outcome> {
    const { req, reply, flow, db, tenant, base, settings } = args;
    // The project's `after` web hooks of this login: an interrupting one's messages refuse the sign-in.
    const signingIn = await publicIdentity(db, tenant.nid, identityId, base);
    const stop = await deps.hooks.afterInterrupting(req, tenant.nid, 'login', method, await flowJson(db, flow, base), signingIn);
    if (stop) {
      showHookMessages(flow.ui, stop);
      return { type: 'flow', status: 400 };
    }
    const session = await db.tx(async (q) => {
      await markPassed(q, flow, deps.ctx.clock.now());
      await linkAfterLogin(q, flow, identityId, deps.ctx.clock.now());
      await recordEvent(q, deps.ctx.clock, tenant.nid, 'LoginSucceeded', { identity_id: identityId, method, aal: 'aal1', flow_type: flow.type });
      return issueSession(q, req, tenant.nid, identityId, method, settings.sessionLifespanMs ?? deps.sessionLifespanMs, deps.ctx.clock);
    });
    deps.ctx.log.info({ nid: tenant.nid, identity_id: identityId }, 'identity signed in');
    await deps.hooks.afterNotifying(req, tenant.nid, 'login', method, await flowJson(db, flow, base), signingIn);
    if (flow.type === 'api') {
      // Native apps get the session token itself, to send as X-Session-Token or a bearer token.
      return { type: 'json', redirect: '', body: { session_token: session.token, session: await sessionJson(db, tenant.nid, session.id, base) } };
    }
    setSessionCookie(reply, tenant, session, isSecure(deps, req));
    const redirect = flow.return_to ?? returnUrlAfter(settings, 'login', method) ?? uiLink(tenant.uiUrl, '/');
    return {
      type: 'json',
      redirect,
      body: {
        session: await sessionJson(db, tenant.nid, session.id, base),
        continue_with: [{ action: 'redirect_browser_to', redirect_browser_to: redirect }],
      },
    };
  }

  /**
   * The first step of an identifier-first login (Kratos' idfirst strategy): the methods the account of the
   * identifier has replace the identifier's form, the identifier kept hidden; an unknown identifier, or one with
   * no method to offer, is refused with Kratos' account_not_found message. JSON callers get the flow with 400.
   */
  async function identify(args: SubmitArgs): Promise<Outcome> {
    const { flow, body, db, tenant, settings } = args;
    const identifier = (body.identifier ?? '').trim();
    setValue(flow.ui.nodes, 'identifier', identifier);
    if (!identifier) {
      addNodeMessage(flow.ui.nodes, 'identifier', texts.required('identifier'));
      return { type: 'flow', status: 400 };
    }
    const password = settings.methods.password ? await findPasswordCredential(db, tenant.nid, identifier) : undefined;
    const code = settings.codeLogin.passwordless && settings.methods.code ? await codeIdentity(db, tenant.nid, identifier.includes('@') ? normalizeEmail(identifier) : identifier, settings) : null;
    if (!password && !code) {
      flow.ui.messages = [texts.accountNotFound()];
      return { type: 'flow', status: 400 };
    }
    const others = flow.ui.nodes.filter((n) => n.group !== 'identifier_first' && n.group !== 'default');
    flow.ui.nodes = [...identifiedPasswordNodes(flow.csrf_token, identifier).filter((n) => password || n.group !== 'password'), ...(code ? codeLoginNodes() : []), ...others];
    flow.data.identifier_first = identifier;
    return { type: 'flow', status: 400 };
  }

  // Verified against for unknown identifiers so that timing does not reveal which emails exist.
  const dummyHash = hashPassword('not-a-real-password-0', deps.hash);
  return {
    kind: 'login',
    guardCreate(req, session) {
      if (queryParam(req, 'aal') === 'aal2') {
        if (!session) throw sessionRequiredForHigherAal();
        if (session.aal === 'aal2' && queryParam(req, 'refresh') !== 'true') throw sessionAlreadyAvailable('login');
        return;
      }
      if (session && queryParam(req, 'refresh') !== 'true') throw sessionAlreadyAvailable('login');
    },
    api: true,
    refuseSignedIn: (flow) => (flow.data.refresh === true || flow.data.aal === 'aal2' ? null : sessionAlreadyAvailable('login')),
    async init({ req, csrf, prior, tenant, settings, session }) {
      const refresh = prior ? prior.data.refresh === true : queryParam(req, 'refresh') === 'true';
      const aal = (prior ? prior.data.aal : queryParam(req, 'aal')) === 'aal2' ? 'aal2' : 'aal1';
      // The second factor is asked for with `aal=aal2`, or on a refresh of an identity that has one.
      const hasTotp = settings.methods.totp && session ? (await findTotpUrl(deps.ctx.db, tenant.nid, session.identity_id)) !== null : false;
      if (aal === 'aal2') {
        const hasCodes = settings.methods.lookup_secret && session ? (await findRecoveryCodes(deps.ctx.db, tenant.nid, session.identity_id)) !== null : false;
        // Security keys need the browser's script: API flows (no CSRF token) do not offer them, as in Kratos.
        const keys = settings.methods.webauthn && session && csrf ? await securityKeyLoginNodes(deps.ctx.db, tenant.nid, webauthnRelyingParty(settings, tenant.base), tenant.base, session.identity_id) : null;
        const addresses = settings.codeLogin.mfa && session ? await codeAddresses(deps.ctx.db, tenant.nid, session.identity_id, settings) : [];
        const nodes = [csrfNode(csrf), ...(hasTotp ? totpLoginNodes() : []), ...(hasCodes ? lookupLoginNodes() : []), ...(keys?.nodes ?? []), ...codeSecondFactorNodes(addresses)];
        return { state: 'choose_method', ui: { nodes }, data: { refresh, aal, ...(keys ? { webauthn: keys.data } : {}) } };
      }
      const passkey = settings.methods.passkey && !refresh ? await passkeyLoginNodes(relyingParty(settings, tenant.base), tenant.base) : null;
      const code = settings.codeLogin.passwordless && !refresh ? codeLoginNodes() : [];
      // Identifier first: only the identifier (and the sign-ins that need none: social, SAML, a passkey) until the account is known.
      const start = settings.identifierFirst && !refresh ? identifierFirstNodes(csrf) : [...loginNodes(csrf), ...code];
      const first = withoutDisabledMethods([...start, ...(passkey?.nodes ?? []), ...(await oidcFlowNodes(deps.ctx.db, tenant.nid, 'login')), ...(await samlFlowNodes(deps.ctx.db, tenant.nid, 'login'))], settings);
      return { state: 'choose_method', ui: { nodes: [...first, ...(refresh && hasTotp ? totpLoginNodes() : [])] }, data: { refresh, aal, ...(passkey ? { passkey: passkey.data } : {}) } };
    },
    async submit(args) {
      const { flow, body, db, tenant, base, settings } = args;
      const nodes = flow.ui.nodes;
      clearNodeMessages(nodes);
      flow.ui.messages = [];
      const saml = await requestedSamlProvider(db, tenant.nid, body);
      if (saml) return startSaml(deps, args, saml);
      const provider = requestedProvider(body);
      if (provider) return body.id_token ? submitIdToken(deps, args, provider) : startOidc(deps, args, provider);
      // An email of an organization's domain signs in through the organization's provider, not a password.
      if (body.method === 'identifier_first' || body.method === 'password') {
        const sso = await organizationProvider(db, tenant.nid, body.identifier);
        if (sso) return sso.method === 'saml' ? startSaml(deps, args, sso.id) : startOidc(deps, args, sso.id);
      }
      if (body.method === 'identifier_first' && settings.identifierFirst && flow.data.aal !== 'aal2' && flow.data.refresh !== true) return identify(args);
      if (body.method === 'totp' && settings.methods.totp && (flow.data.aal === 'aal2' || flow.data.refresh === true)) return submitTotp(args);
      if (body.method === 'lookup_secret' && settings.methods.lookup_secret && flow.data.aal === 'aal2') return submitLookup(args);
      if ((body.method === 'webauthn' || !!body.webauthn_login) && settings.methods.webauthn && flow.data.aal === 'aal2' && flow.type === 'browser') return submitSecurityKey(args);
      // A one-time code as the second factor (`selfservice.methods.code.mfa_enabled`): an address button, then the code.
      const codeFactor = body.method === 'code' || !!body.address || (typeof body.resend === 'string' && body.resend.toLowerCase() === 'code');
      if (codeFactor && settings.codeLogin.mfa && settings.methods.code && flow.data.aal === 'aal2') {
        if (!args.session) throw noActiveSession();
        const session = args.session;
        const outcome = await submitCodeSecondFactor(deps, args, session.identity_id);
        if ('status' in outcome) {
          if (outcome.failed) await recordEvent(db, deps.ctx.clock, tenant.nid, 'LoginFailed', { method: 'code', reason: 'invalid_credentials', flow_type: flow.type });
          return { type: 'flow', status: outcome.status };
        }
        await db.tx(async (q) => {
          await markPassed(q, flow, deps.ctx.clock.now());
          await raiseSessionToAal2(q, tenant.nid, session.id, 'code', deps.ctx.clock);
          await recordEvent(q, deps.ctx.clock, tenant.nid, 'LoginSucceeded', { identity_id: session.identity_id, method: 'code', aal: 'aal2', flow_type: flow.type });
        });
        return raised(args, session.id, 'code');
      }
      // A one-time code instead of a password (`selfservice.methods.code.passwordless_enabled`); `resend` asks for another.
      const codeAsked = body.method === 'code' || (typeof body.resend === 'string' && body.resend.toLowerCase() === 'code');
      if (codeAsked && settings.codeLogin.passwordless && settings.methods.code && flow.data.aal !== 'aal2' && flow.data.refresh !== true) {
        const outcome = await submitCodeLogin(deps, args);
        if ('status' in outcome) {
          if (outcome.failed) await recordEvent(db, deps.ctx.clock, tenant.nid, 'LoginFailed', { method: 'code', reason: 'invalid_credentials', flow_type: flow.type });
          return { type: 'flow', status: outcome.status };
        }
        return signedIn(args, outcome.signedIn, 'code');
      }
      // Kratos' script submits the passkey form without `method`: the answer itself names the method.
      if (settings.methods.passkey && flow.data.aal !== 'aal2' && (body.method === 'passkey' || !!body.passkey_login)) {
        const proven = await db.tx((q) => verifyPasskeyLogin(q, tenant.nid, relyingParty(settings, base), flow.data.passkey as PasskeyFlowData | undefined, body.passkey_login, args.now));
        const identity = typeof proven === 'string' ? null : await findIdentity(db, tenant.nid, proven.identityId);
        if (typeof proven === 'string' || identity?.row.state !== 'active') {
          await recordEvent(db, deps.ctx.clock, tenant.nid, 'LoginFailed', { method: 'passkey', reason: 'invalid_credentials', flow_type: flow.type });
          flow.ui.messages = [proven === 'invalid' ? texts.passkeyInvalid() : texts.noPasskeyUser()];
          return { type: 'flow', status: 400 };
        }
        return signedIn(args, identity.row.id, 'passkey');
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
      return signedIn(args, credential.identity_id, 'password');
    },
  };
}

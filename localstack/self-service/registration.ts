import { isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { OryError, sessionAlreadyAvailable } from '../kernel/errors';
import type { FlowHandler, Outcome, SubmitArgs } from './flow-routes';
import { flowJson, markPassed } from './flows';
import { uiLink } from '../kernel/http';
import { returnUrlAfter } from '../kernel/identity-settings';
import { traitIdentifiers } from '../../shared/domain/identity-schema-extension';
import { insertIdentity } from '../identity/store';
import { defaultSchema, tenantSchemas } from '../identity-schema/tenant-schemas';
import { publicIdentity } from '../identity/service';
import { createIdentity, isUniqueViolation, normalizeEmail, type Traits } from '../identity/store';
import { checkSubmittedTraits, schemaRegistrationNodes, submittedTraits } from './schema-nodes';
import { IDENTITY_SCHEMA } from '../identity-schema/console-schema';
import type { JsonObject } from '../kernel/tenant-config';
import { CONSOLE_NID } from '../kernel/tenant-id';
import { addNodeMessage, clearNodeMessages, registrationNodes, withoutDisabledMethods } from './nodes';
import { hashPassword } from '../identity/password';
import { passwordPolicyError } from './password-policy';
import { issueSession, sessionJson, setSessionCookie } from '../session/service';
import { recordEvent } from '../event/record';
import { texts } from './texts';
import { validateTraits } from './traits';
import { startVerification } from './verification-mail';
import { passkeyRegistrationNodes, relyingParty, savePasskey, verifyPasskeyRegistration, type PasskeyFlowData } from './passkey';
import { completePendingRegistration, oidcFlowNodes, requestedProvider, startOidc, submitIdToken } from './oidc';
import { requestedSamlProvider, samlFlowNodes, startSaml } from './saml';
import { showHookMessages } from './hook-messages';
import { codeRegistrationNodes, submitCodeRegistration } from './code-registration';
import { insertCodeCredential, markAddressVerified } from '../identity/store';

/** The tenant's default identity schema when it is not the console's own (whose form is the fixed one), else null. */
async function ownSchema(deps: IdentityDeps, nid: string): Promise<JsonObject | null> {
  if (nid === CONSOLE_NID) return null;
  const schema = defaultSchema(await tenantSchemas(deps.ctx.db, nid)).schema;
  return schema === IDENTITY_SCHEMA ? null : schema;
}

/** The trait a passkey is named after: the one the schema marks `passkey.display_name`, else the email. */
function passkeyDisplayNameField(schema: JsonObject | null): string {
  const traits = (schema?.properties as { traits?: { properties?: Record<string, { 'ory.sh/kratos'?: { credentials?: { passkey?: { display_name?: boolean } } } }> } } | undefined)?.traits?.properties ?? {};
  const marked = Object.entries(traits).find(([, p]) => p?.['ory.sh/kratos']?.credentials?.passkey?.display_name === true)?.[0];
  return `traits.${marked ?? 'email'}`;
}

/** Registration with the traits and a password, a passkey or a one-time code (or a provider's claims); signs the new identity in. */
export function registrationHandler(deps: IdentityDeps): FlowHandler {
  /**
   * Creates the identity of accepted traits with its credential, signs it in, and answers as Kratos does: a
   * code's address is verified (no verification mail for it), the others get one when verification is on.
   */
  async function complete(
    args: SubmitArgs,
    schema: JsonObject | null,
    traits: Traits | Record<string, unknown>,
    email: string | null,
    credential:
      | { method: 'password'; passwordHash: string | undefined }
      | { method: 'passkey'; passkey: NonNullable<Awaited<ReturnType<typeof verifyPasskeyRegistration>>> }
      | { method: 'code'; verified: string },
  ): Promise<Outcome> {
    const { req, reply, flow, db, tenant, base, settings } = args;
    const { method } = credential;
    const passwordHash = credential.method === 'password' ? credential.passwordHash : undefined;
    const passkey = credential.method === 'passkey' ? credential.passkey : null;
    const verified = credential.method === 'code' ? credential.verified : null;

    // The project's `after` web hooks: those that may interrupt see the identity before it is stored, and
    // their messages stop the registration; the others are told once it is.
    const stop = await deps.hooks.afterInterrupting(req, tenant.nid, 'registration', method, await flowJson(db, flow, base), { schema_id: 'default', traits, state: 'active' });
    if (stop) {
      showHookMessages(flow.ui, stop);
      return { type: 'flow', status: 400 };
    }
    const accepted = traits;
    let result;
    try {
      result = await db.tx(async (q) => {
        const identityId = schema || !passwordHash
          ? await insertIdentity(q, tenant.nid, {
              // `default`: the identity follows the project's default schema, as the admin API's default does.
              schemaId: 'default',
              traits: accepted as Traits,
              state: 'active',
              metadataPublic: null,
              metadataAdmin: null,
              identifiers: traitIdentifiers(schema ?? IDENTITY_SCHEMA, accepted),
              ...(passwordHash ? { passwordHash } : {}),
            })
          : await createIdentity(q, tenant.nid, accepted as Traits, passwordHash);
        if (passkey) await savePasskey(q, tenant.nid, identityId, passkey, deps.ctx.clock.now());
        if (verified) {
          await insertCodeCredential(q, tenant.nid, identityId, verified);
          await markAddressVerified(q, tenant.nid, identityId, verified);
        }
        await markPassed(q, flow, deps.ctx.clock.now());
        await recordEvent(q, deps.ctx.clock, tenant.nid, 'RegistrationSucceeded', { identity_id: identityId, method, flow_type: flow.type });
        const session = await issueSession(q, req, tenant.nid, identityId, method, settings.sessionLifespanMs ?? deps.sessionLifespanMs, deps.ctx.clock);
        const verification = email && email !== verified && settings.verification.enabled
          ? await startVerification(deps, q, tenant, {
              csrf: flow.csrf_token,
              identityId,
              email,
              requestUrl: `${base}/self-service/verification/${flow.type === 'api' ? 'api' : 'browser'}`,
              returnTo: flow.return_to,
              type: flow.type === 'api' ? 'api' : 'browser',
            })
          : null;
        return { identityId, session, verification };
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      flow.ui.messages = [texts.duplicateCredentials()];
      return { type: 'flow', status: 400 };
    }
    deps.ctx.log.info({ nid: tenant.nid, identity_id: result.identityId }, 'identity registered');
    const identity = await publicIdentity(db, tenant.nid, result.identityId, base);
    const session = await sessionJson(db, tenant.nid, result.session.id, base);
    await deps.hooks.afterNotifying(req, tenant.nid, 'registration', method, await flowJson(db, flow, base), identity);
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
          continue_with: [{ action: 'set_ory_session_token', ory_session_token: token }, ...(result.verification ? [result.verification.continueWith] : [])],
        },
      };
    }
    setSessionCookie(reply, tenant, result.session, isSecure(deps, req));
    const redirect = flow.return_to ?? returnUrlAfter(settings, 'registration', method) ?? uiLink(tenant.uiUrl, '/');
    return {
      type: 'json',
      redirect,
      body: {
        identity,
        session,
        continue_with: [
          ...(result.verification ? [result.verification.continueWith] : []),
          { action: 'redirect_browser_to', redirect_browser_to: redirect },
        ],
      },
    };
  }

  return {
    kind: 'registration',
    guardCreate(_req, session) {
      if (session) throw sessionAlreadyAvailable('registration');
    },
    refuseSignedIn: () => sessionAlreadyAvailable('registration'),
    disabled: (settings) =>
      settings.registrationEnabled
        ? null
        : new OryError(400, { id: 'self_service_flow_disabled', message: 'registration flow disabled', reason: 'Registration is not allowed because it was disabled.' }),
    api: true,
    async init({ csrf, tenant, settings }) {
      const schema = await ownSchema(deps, tenant.nid);
      const nodes = schema ? schemaRegistrationNodes(csrf, schema) : registrationNodes(csrf);
      // Kratos offers sign-up by code wherever `passwordless_enabled` offers sign-in by code.
      const code = settings.codeLogin.passwordless ? codeRegistrationNodes() : [];
      const passkey = settings.methods.passkey ? await passkeyRegistrationNodes(relyingParty(settings, tenant.base), tenant.base, passkeyDisplayNameField(schema)) : null;
      const ui = { nodes: withoutDisabledMethods([...nodes, ...code, ...(passkey?.nodes ?? []), ...(await oidcFlowNodes(deps.ctx.db, tenant.nid, 'registration')), ...(await samlFlowNodes(deps.ctx.db, tenant.nid, 'registration'))], settings) };
      return { state: 'choose_method', ui, ...(passkey ? { data: { passkey: passkey.data } } : {}) };
    },
    async submit(args) {
      const { flow, body, db, tenant, base, settings } = args;
      const nodes = flow.ui.nodes;
      clearNodeMessages(nodes);
      flow.ui.messages = [];
      const saml = await requestedSamlProvider(db, tenant.nid, body);
      if (saml) return startSaml(deps, args, saml);
      const provider = requestedProvider(body);
      if (provider && body.id_token) return submitIdToken(deps, args, provider);
      if (provider) return (await completePendingRegistration(deps, args, provider)) ?? startOidc(deps, args, provider, { traits: (body.traits as Record<string, unknown> | undefined) ?? {} });
      const schema = await ownSchema(deps, tenant.nid);
      // A passkey sign-up posts the browser's answer (Kratos' form is submitted by its script, without `method`).
      const withPasskey = settings.methods.passkey && (body.method === 'passkey' || !!body.passkey_register);
      // A one-time code instead of a password (`selfservice.methods.code.passwordless_enabled`); `resend` asks for another.
      const withCode =
        settings.codeLogin.passwordless && settings.methods.code && (body.method === 'code' || (typeof body.resend === 'string' && body.resend.toLowerCase() === 'code'));
      let traits: Traits | Record<string, unknown> | null;
      let identifier: string;
      let email: string | null;
      if (schema) {
        const submitted = submittedTraits(schema, body.traits);
        traits = checkSubmittedTraits(nodes, schema, submitted) ? submitted : null;
        const identifiers = traitIdentifiers(schema, submitted);
        identifier = identifiers.password ?? '';
        email = identifiers.verifiable.find((a) => a.via === 'email')?.value ?? null;
        if (traits && !identifiers.password && !withPasskey && !withCode) flow.ui.messages = [texts.noStrategy('registration')];
      } else {
        traits = validateTraits(nodes, body.traits);
        identifier = traits ? normalizeEmail(traits.email as string) : '';
        email = identifier;
      }
      if (withCode) {
        const outcome = await submitCodeRegistration(deps, args, schema, traits);
        if ('status' in outcome) return { type: 'flow', status: outcome.status };
        return complete(args, schema, traits as Record<string, unknown>, email, { method: 'code', verified: outcome.verified });
      }
      if (!withPasskey && (body.method !== 'password' || !settings.methods.password)) {
        flow.ui.messages = [texts.noStrategy('registration')];
        return { type: 'flow', status: 400 };
      }
      let passwordHash: string | undefined;
      let passkey: Awaited<ReturnType<typeof verifyPasskeyRegistration>> = null;
      if (withPasskey) {
        if (!traits || flow.ui.messages.length > 0) return { type: 'flow', status: 400 };
        passkey = await verifyPasskeyRegistration(relyingParty(settings, base), flow.data.passkey as PasskeyFlowData | undefined, body.passkey_register, args.now);
        if (!passkey) {
          flow.ui.messages = [texts.passkeyInvalid()];
          return { type: 'flow', status: 400 };
        }
      } else {
        const password = body.password ?? '';
        const policy = password ? passwordPolicyError(password, identifier, settings.password) : texts.required('password');
        if (policy) addNodeMessage(nodes, 'password', policy);
        if (!traits || policy || flow.ui.messages.length > 0) return { type: 'flow', status: 400 };
        passwordHash = await hashPassword(password, deps.hash);
      }
      return complete(args, schema, traits, email, passkey ? { method: 'passkey', passkey } : { method: 'password', passwordHash });
    },
  };
}

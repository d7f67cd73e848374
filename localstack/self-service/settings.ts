import type { Queryable } from '../db/types';
import type { IdentityDeps } from '../kernel/identity-deps';
import { noActiveSession, OryError } from '../kernel/errors';
import type { FlowHandler, SubmitArgs } from './flow-routes';
import { uiLink } from '../kernel/http';
import { getTraits, isUniqueViolation, normalizeEmail, setAddresses, updatePasswordCredential, updateTraits, type Traits } from '../identity/store';
import { addNodeMessage, clearNodeMessages, settingsNodes, setValue, withoutDisabledMethods, type UiNode } from './nodes';
import { hashPassword } from '../identity/password';
import { passwordPolicyError } from './password-policy';
import { texts } from './texts';
import { traitIdentifiers } from '../../shared/domain/identity-schema-extension';
import { findIdentity, updateIdentity } from '../identity/store';
import { checkSubmittedTraits, ownIdentitySchema, schemaSettingsNodes, submittedTraits } from './schema-nodes';
import type { JsonObject } from '../kernel/tenant-config';
import { validateTraits } from './traits';
import { startVerification } from './verification-mail';
import { oidcSettingsNodes, requestedLink, startOidc, unlinkOidc } from './oidc';
import { requestedSamlLink, samlSettingsNodes, startSaml, unlinkSaml } from './saml';
import { recordEvent } from '../event/record';
import { publicIdentity } from '../identity/service';
import { flowJson } from './flows';
import { showHookMessages } from './hook-messages';
import type { IdentitySettings } from '../kernel/identity-settings';
import type { Tenant } from '../kernel/tenant';
import { checkEnrolmentCode, deleteTotp, findTotpUrl, newTotpUrl, saveTotpUrl, totpIssuer, totpSettingsNodes } from './totp';
import {
  codesNode,
  confirmNode,
  deleteRecoveryCodes,
  disableNode,
  findRecoveryCodes,
  hasSecondFactor,
  LOOKUP_CODE_COUNT,
  lookupSettingsNodes,
  newRecoveryCodes,
  noCodesToReveal,
  nothingToConfirm,
  regenerateNode,
  saveRecoveryCodes,
  type RecoveryCode,
} from './lookup';
import { aal2Required, raiseSessionToAal2 } from '../session/service';
import { addSecurityKey, removeSecurityKey, securityKeySettingsNodes, webauthnRelyingParty, type WebauthnFlowData } from './webauthn';
import { addPasskey, countFirstFactors, findPasskeys, passkeySettingsNodes, relyingParty, removePasskey, type PasskeyFlowData } from './passkey';

const identityMismatch = () =>
  new OryError(403, { id: 'security_identity_mismatch', reason: 'The requested flow does not belong to this session.' });

/**
 * The `totp` nodes of a settings flow when the project turned the authenticator app on: unlink when the
 * identity has one, else a new key (kept in the flow's `data.totp_url` until a code of it is typed in).
 */
async function totpNodes(
  q: Queryable,
  tenant: Tenant,
  settings: IdentitySettings,
  identityId: string | null,
  accountName: string | undefined,
  data: Record<string, unknown>,
): Promise<UiNode[]> {
  if (!settings.methods.totp || !identityId) return [];
  const enrolled = (await findTotpUrl(q, tenant.nid, identityId)) !== null;
  if (enrolled) {
    delete data.totp_url;
  } else if (typeof data.totp_url !== 'string') {
    data.totp_url = newTotpUrl(totpIssuer(settings, tenant.base), accountName || identityId);
  }
  return totpSettingsNodes(enrolled, typeof data.totp_url === 'string' ? data.totp_url : null);
}

/** The `lookup_secret` nodes of a settings flow when the project turned backup codes on. */
async function lookupNodes(q: Queryable, tenant: Tenant, settings: IdentitySettings, identityId: string | null): Promise<UiNode[]> {
  if (!settings.methods.lookup_secret || !identityId) return [];
  return lookupSettingsNodes((await findRecoveryCodes(q, tenant.nid, identityId)) !== null);
}

/**
 * The `passkey` nodes of a settings flow when the project turned passkeys on: a remove button per key and
 * "Add passkey" (the options' challenge kept in the flow's `data.passkey` until the browser answers).
 */
async function passkeyNodes(q: Queryable, tenant: Tenant, settings: IdentitySettings, identityId: string | null, userName: string | undefined, data: Record<string, unknown>): Promise<UiNode[]> {
  if (!settings.methods.passkey || !identityId) return [];
  const existing = await findPasskeys(q, tenant.nid, identityId);
  const firstFactors = await countFirstFactors(q, tenant.nid, identityId, settings);
  const built = await passkeySettingsNodes(relyingParty(settings, tenant.base), tenant.base, existing, userName || identityId, firstFactors);
  data.passkey = built.data;
  return built.nodes;
}

/** The `webauthn` nodes of a browser settings flow when the project turned security keys (second factor) on. */
async function securityKeyNodes(q: Queryable, tenant: Tenant, settings: IdentitySettings, identityId: string | null, userName: string | undefined, data: Record<string, unknown>, browser: boolean): Promise<UiNode[]> {
  if (!settings.methods.webauthn || !identityId || !browser) return [];
  const built = await securityKeySettingsNodes(q, tenant.nid, webauthnRelyingParty(settings, tenant.base), tenant.base, identityId, userName || identityId);
  data.webauthn = built.data;
  return built.nodes;
}

const isSet = (v: boolean | string | undefined) => v === true || v === 'true';
const LOOKUP_ACTIONS = ['lookup_secret_confirm', 'lookup_secret_reveal', 'lookup_secret_disable', 'lookup_secret_regenerate'] as const;

/** Settings (profile: name and email; password; the authenticator app; backup codes) of the signed-in identity. */
export function settingsHandler(deps: IdentityDeps): FlowHandler {
  function requirePrivileged(args: SubmitArgs): void {
    const authenticatedAt = new Date(args.session?.authenticated_at ?? 0).getTime();
    if (args.now.getTime() - authenticatedAt <= deps.privilegedSessionMs) return;
    const returnTo = uiLink(args.tenant.uiUrl, '/settings', { flow: args.flow.id });
    throw new OryError(403, {
      id: 'session_refresh_required',
      reason: 'The login session is too old and thus not allowed to update these fields. Please re-authenticate.',
      extra: {
        redirect_browser_to: `${args.base}/self-service/login/browser?refresh=true&return_to=${encodeURIComponent(returnTo)}`,
      },
    });
  }

  /**
   * Kratos' pre-persist settings hooks: the project's interrupting `after` web hooks (`can_interrupt` or
   * `response.parse`) see the identity as it is about to be saved, and their messages refuse the change before
   * anything is stored. The other `after` hooks are told once it is stored (`submit`).
   */
  async function interrupted(args: SubmitArgs, method: string, traits?: Record<string, unknown>): Promise<boolean> {
    const { req, flow, db, tenant, base } = args;
    const identity = await publicIdentity(db, tenant.nid, flow.identity_id ?? '', base);
    const stop = await deps.hooks.afterInterrupting(req, tenant.nid, 'settings', method, await flowJson(db, flow, base), identity && traits ? { ...identity, traits } : identity);
    if (!stop) return false;
    showHookMessages(flow.ui, stop);
    return true;
  }

  /**
   * Saves a profile change in one transaction: a verification it starts continues the flow, and an identifier
   * another identity holds already is the flow's message, not an error.
   */
  async function saveVerifying(args: SubmitArgs, traits: Record<string, unknown>, work: (q: Queryable) => Promise<{ continueWith: unknown } | null>): Promise<boolean> {
    const { flow, db } = args;
    if (await interrupted(args, 'profile', traits)) return false;
    try {
      const verification = await db.tx(work);
      if (verification) flow.data.continue_with = [verification.continueWith];
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      flow.ui.messages = [texts.duplicateCredentials()];
      return false;
    }
    return true;
  }

  /** Profile of an identity whose schema is its project's own: traits checked against it, identifiers and addresses from it. */
  async function saveSchemaProfile(args: SubmitArgs, schema: JsonObject) {
    const { flow, body, db, tenant, base } = args;
    const { nid } = tenant;
    const current = await findIdentity(db, nid, flow.identity_id ?? '');
    if (!current) throw noActiveSession();
    const traits = { ...(current.row.traits as Record<string, unknown>), ...submittedTraits(schema, body.traits) };
    if (!checkSubmittedTraits(flow.ui.nodes, schema, traits)) return false;
    const before = traitIdentifiers(schema, current.row.traits as Record<string, unknown>);
    const after = traitIdentifiers(schema, traits);
    const addresses = (ids: typeof before) => JSON.stringify([ids.password, ids.verifiable, ids.recovery]);
    if (addresses(before) !== addresses(after)) requirePrivileged(args);
    const newEmail = after.verifiable.find((a) => a.via === 'email' && !before.verifiable.some((b) => b.via === 'email' && b.value === a.value));
    return saveVerifying(args, traits, async (q) => {
      await updateIdentity(q, nid, current.row, {
        schemaId: current.row.schema_id,
        traits: traits as Traits,
        state: current.row.state as 'active' | 'inactive',
        metadataPublic: current.row.metadata_public,
        metadataAdmin: current.row.metadata_admin,
        identifiers: after,
      });
      if (!newEmail) return null;
      return startVerification(deps, q, tenant, {
        csrf: flow.csrf_token,
        identityId: current.row.id,
        email: newEmail.value,
        requestUrl: `${base}/self-service/verification/browser`,
      });
    });
  }

  async function saveProfile(args: SubmitArgs) {
    const { flow, body, db, tenant, base } = args;
    const { nid } = tenant;
    const schema = await ownIdentitySchema(db, nid, flow.identity_id);
    if (schema) return saveSchemaProfile(args, schema);
    const traits = validateTraits(flow.ui.nodes, body.traits);
    if (!traits) return false;
    const identityId = flow.identity_id ?? '';
    const before = await getTraits(db, nid, identityId);
    const email = normalizeEmail(traits.email);
    const emailChanged = normalizeEmail(before?.email ?? '') !== email;
    if (emailChanged) requirePrivileged(args);
    return saveVerifying(args, { ...before, ...traits }, async (q) => {
      await updateTraits(q, nid, identityId, { ...before, ...traits });
      if (!emailChanged) return null;
      await updatePasswordCredential(q, nid, identityId, { identifier: email });
      await setAddresses(q, nid, identityId, email);
      return startVerification(deps, q, tenant, {
        csrf: flow.csrf_token,
        identityId,
        email,
        requestUrl: `${base}/self-service/verification/browser`,
      });
    });
  }

  async function savePassword(args: SubmitArgs) {
    const { flow, body, db, tenant } = args;
    const password = body.password ?? '';
    const traits = await getTraits(db, tenant.nid, flow.identity_id ?? '');
    const schema = await ownIdentitySchema(db, tenant.nid, flow.identity_id);
    const identifier = schema ? (traitIdentifiers(schema, traits ?? {}).password ?? '') : normalizeEmail(traits?.email ?? '');
    const policy = password ? passwordPolicyError(password, identifier, args.settings.password) : texts.required('password');
    if (policy) {
      addNodeMessage(flow.ui.nodes, 'password', policy);
      return false;
    }
    requirePrivileged(args);
    if (await interrupted(args, 'password')) return false;
    const hashed = await hashPassword(password, deps.hash);
    await updatePasswordCredential(db, tenant.nid, flow.identity_id ?? '', { secret: hashed });
    return true;
  }

  /** Links the pending key of the flow once a code of it is right, or unlinks the identity's authenticator app. */
  async function saveTotp(args: SubmitArgs): Promise<boolean> {
    const { flow, body, db, tenant, now } = args;
    const identityId = flow.identity_id ?? '';
    requirePrivileged(args);
    if (body.totp_unlink === true || body.totp_unlink === 'true') {
      await deleteTotp(db, tenant.nid, identityId);
      return true;
    }
    const url = typeof flow.data.totp_url === 'string' ? flow.data.totp_url : null;
    if (!url) {
      flow.ui.messages = [texts.noStrategy('settings')];
      return false;
    }
    if (!checkEnrolmentCode(flow.ui.nodes, url, body.totp_code, now)) return false;
    // As Kratos: the app just proven counts as a second factor of the session that enrolled it.
    await db.tx(async (q) => {
      await saveTotpUrl(q, tenant.nid, identityId, url, now);
      if (args.session) await raiseSessionToAal2(q, tenant.nid, args.session.id, 'totp', deps.ctx.clock);
    });
    delete flow.data.totp_url;
    return true;
  }

  /**
   * Passkeys, as Kratos' passkey settings: `passkey_remove` (a key's hex id) removes that key unless it is the
   * identity's last way to sign in; `passkey_settings_register` (the browser's answer to the flow's options) adds one.
   */
  async function savePasskeys(args: SubmitArgs): Promise<boolean> {
    const { flow, body, db, tenant, settings, now, base } = args;
    const identityId = flow.identity_id ?? '';
    requirePrivileged(args);
    if (body.passkey_remove) {
      const hexId = body.passkey_remove;
      const removed = await db.tx((q) => removePasskey(q, tenant.nid, identityId, hexId, settings, now));
      if (removed === 'missing') throw new OryError(400, { reason: 'You tried to remove a passkey which does not exist.' });
      if (removed === 'last') {
        flow.ui.messages = [texts.validation('unable to remove this security key because it would lock you out of your account')];
        return false;
      }
      return true;
    }
    const data = flow.data.passkey as PasskeyFlowData | undefined;
    const added = await db.tx((q) => addPasskey(q, tenant.nid, identityId, relyingParty(settings, base), data, body.passkey_settings_register, now));
    if (added === 'invalid') {
      flow.ui.messages = [texts.passkeyInvalid()];
      return false;
    }
    if (added === 'duplicate') {
      addNodeMessage(flow.ui.nodes, 'passkey_settings_register', texts.validation('this security key or passkey is already registered with your account'));
      return false;
    }
    delete flow.data.passkey;
    return true;
  }

  /**
   * Security keys, as Kratos' webauthn settings (second factor): `webauthn_remove` removes the key its hex id names;
   * `webauthn_register` (the browser's answer) adds one named `webauthn_register_displayname`, which then counts
   * as a second factor of the session.
   */
  async function saveSecurityKeys(args: SubmitArgs): Promise<boolean> {
    const { flow, body, db, tenant, settings, now, base, session } = args;
    const identityId = flow.identity_id ?? '';
    requirePrivileged(args);
    if (body.webauthn_remove) {
      const hexId = body.webauthn_remove;
      const removed = await db.tx((q) => removeSecurityKey(q, tenant.nid, identityId, hexId, now));
      if (removed === 'none') throw new OryError(400, { reason: 'You tried to remove a WebAuthn but you have no WebAuthn set up.' });
      if (removed === 'missing') throw new OryError(400, { reason: 'You tried to remove a WebAuthn credential which does not exist.' });
      return true;
    }
    const data = flow.data.webauthn as WebauthnFlowData | undefined;
    const name = body.webauthn_register_displayname?.trim() ?? '';
    const added = await db.tx(async (q) => {
      const outcome = await addSecurityKey(q, tenant.nid, identityId, webauthnRelyingParty(settings, base), data, body.webauthn_register, name, now);
      if (outcome === 'added' && session) await raiseSessionToAal2(q, tenant.nid, session.id, 'webauthn', deps.ctx.clock);
      return outcome;
    });
    if (added === 'invalid') {
      flow.ui.messages = [texts.passkeyInvalid()];
      return false;
    }
    if (added === 'duplicate') {
      addNodeMessage(flow.ui.nodes, 'webauthn_register', texts.validation('this security key or passkey is already registered with your account'));
      return false;
    }
    delete flow.data.webauthn;
    return true;
  }

  /**
   * Backup codes, as Kratos' lookup strategy: regenerate shows twelve new codes (kept in the flow) with a confirm
   * button, confirm saves them and counts as a second factor of the session, reveal shows the saved ones,
   * disable deletes them. Regenerate and reveal return the flow as it is (`show_form`); confirm and disable
   * save it. Returns null for "show the flow", else whether it saved.
   */
  async function saveLookup(args: SubmitArgs): Promise<boolean | null> {
    const { flow, body, db, tenant, now, session } = args;
    const identityId = flow.identity_id ?? '';
    requirePrivileged(args);
    // Kratos' precedence when several are set: confirm, reveal, disable, regenerate.
    const action = LOOKUP_ACTIONS.find((a) => isSet(body[a]));
    const withoutLookup = () => flow.ui.nodes.filter((n) => n.group !== 'lookup_secret');
    if (action === 'lookup_secret_confirm') {
      const pending = flow.data.lookup_regenerated as RecoveryCode[] | undefined;
      if (!Array.isArray(pending) || pending.length !== LOOKUP_CODE_COUNT) throw nothingToConfirm();
      await db.tx(async (q) => {
        await saveRecoveryCodes(q, tenant.nid, identityId, pending.map((c) => ({ code: c.code })), now);
        if (session) await raiseSessionToAal2(q, tenant.nid, session.id, 'lookup_secret', deps.ctx.clock);
      });
      delete flow.data.lookup_regenerated;
      return true;
    }
    if (action === 'lookup_secret_reveal') {
      const codes = await findRecoveryCodes(db, tenant.nid, identityId);
      if (!codes) throw noCodesToReveal();
      flow.ui.nodes = [...withoutLookup(), codesNode(codes), disableNode(), regenerateNode()];
      return null;
    }
    if (action === 'lookup_secret_disable') {
      await deleteRecoveryCodes(db, tenant.nid, identityId);
      delete flow.data.lookup_regenerated;
      return true;
    }
    if (action === 'lookup_secret_regenerate') {
      const codes = newRecoveryCodes();
      flow.data.lookup_regenerated = codes;
      flow.ui.nodes = [...withoutLookup(), codesNode(codes), confirmNode()];
    }
    return null;
  }

  /** `selfservice.flows.settings.required_aal: highest_available`: an identity with a second factor must have used it. */
  async function requireAal(tenant: Tenant, settings: IdentitySettings, session: { aal: string; identity_id: string } | null, returnTo?: string) {
    if (!session || session.aal === 'aal2' || settings.settingsRequiredAal !== 'highest_available') return;
    if (await hasSecondFactor(deps.ctx.db, tenant.nid, session.identity_id, settings)) throw aal2Required(tenant.base, returnTo);
  }

  return {
    kind: 'settings',
    api: true,
    guardCreate(_req, session) {
      if (!session) throw noActiveSession();
    },
    guardAccess(flow, session) {
      if (!session) throw noActiveSession();
      if (session.identity_id !== flow.identity_id) throw identityMismatch();
    },
    async init({ csrf, session, prior, tenant, settings }) {
      await requireAal(tenant, settings, session);
      const identityId = prior?.identity_id ?? session?.identity_id ?? null;
      const traits = session && session.identity_id === identityId ? session.traits : {};
      const schema = await ownIdentitySchema(deps.ctx.db, tenant.nid, identityId);
      const nodes = schema ? schemaSettingsNodes(csrf, schema, traits) : settingsNodes(csrf, traits);
      const data: Record<string, unknown> = {};
      const totp = await totpNodes(deps.ctx.db, tenant, settings, identityId, (traits as { email?: string }).email, data);
      const passkeys = await passkeyNodes(deps.ctx.db, tenant, settings, identityId, (traits as { email?: string }).email, data);
      const keys = await securityKeyNodes(deps.ctx.db, tenant, settings, identityId, (traits as { email?: string }).email, data, csrf !== '');
      return {
        state: 'show_form',
        identityId,
        ui: {
          nodes: withoutDisabledMethods(
            [...nodes, ...(await oidcSettingsNodes(deps.ctx.db, tenant.nid, identityId)), ...(await samlSettingsNodes(deps.ctx.db, tenant.nid, identityId)), ...totp, ...(await lookupNodes(deps.ctx.db, tenant, settings, identityId)), ...passkeys, ...keys],
            settings,
          ),
        },
        data,
      };
    },
    async submit(args) {
      const { flow, body } = args;
      await requireAal(args.tenant, args.settings, args.session, uiLink(args.tenant.uiUrl, '/settings', { flow: flow.id }));
      clearNodeMessages(flow.ui.nodes);
      flow.ui.messages = [];
      flow.data.continue_with = [];
      setValue(flow.ui.nodes, 'password', undefined);
      let saved: boolean;
      const { methods } = args.settings;
      const saml = await requestedSamlLink(args.db, args.tenant.nid, body);
      if (saml && !saml.provider) {
        throw new OryError(400, { reason: 'Expected either link or unlink to be set when continuing flow but both are unset.' });
      }
      if (saml) requirePrivileged(args);
      if (saml?.action === 'link') return startSaml(deps, args, saml.provider);
      const social = saml ? undefined : requestedLink(body);
      if (social && !social.provider) {
        throw new OryError(400, { reason: 'Expected either link or unlink to be set when continuing flow but both are unset.' });
      }
      if (social) requirePrivileged(args);
      if (social?.action === 'link') return startOidc(deps, args, social.provider, { link: true });
      // Kratos' passkey form has only its two fields to say what it wants; `method` is then `passkey`.
      const passkeyAsked = !!(body.passkey_remove || body.passkey_settings_register);
      const securityKeyAsked = !!(body.webauthn_remove || body.webauthn_register);
      if (saml?.action === 'unlink') saved = !(await interrupted(args, 'saml')) && (await unlinkSaml(args, saml.provider));
      else if (social?.action === 'unlink') saved = !(await interrupted(args, 'oidc')) && (await unlinkOidc(args, social.provider));
      else if (passkeyAsked && methods.passkey) saved = !(await interrupted(args, 'passkey')) && (await savePasskeys(args));
      else if (securityKeyAsked && methods.webauthn && flow.type === 'browser') saved = !(await interrupted(args, 'webauthn')) && (await saveSecurityKeys(args));
      else if (body.method === 'profile' && methods.profile) saved = await saveProfile(args);
      else if (body.method === 'password' && methods.password) saved = await savePassword(args);
      else if (body.method === 'totp' && methods.totp) saved = !(await interrupted(args, 'totp')) && (await saveTotp(args));
      else if (LOOKUP_ACTIONS.some((a) => isSet(body[a])) && methods.lookup_secret) {
        const outcome = await saveLookup(args);
        if (outcome === null) return { type: 'flow', status: 200 };
        saved = outcome;
      } else {
        flow.ui.messages = [texts.noStrategy('settings')];
        return { type: 'flow', status: 400 };
      }
      if (!saved) return { type: 'flow', status: 400 };
      const method = saml ? 'saml' : social ? 'oidc' : passkeyAsked ? 'passkey' : securityKeyAsked ? 'webauthn' : (body.method ?? 'lookup_secret');
      await recordEvent(args.db, deps.ctx.clock, args.tenant.nid, 'SettingsSucceeded', { identity_id: flow.identity_id ?? undefined, method: saml ? 'saml' : passkeyAsked ? 'passkey' : securityKeyAsked ? 'webauthn' : body.method, flow_type: flow.type });
      const updated = await publicIdentity(args.db, args.tenant.nid, flow.identity_id ?? '', args.base);
      await deps.hooks.afterNotifying(args.req, args.tenant.nid, 'settings', method, await flowJson(args.db, flow, args.base), updated);
      const traits = (await getTraits(args.db, args.tenant.nid, flow.identity_id ?? '')) ?? { email: '' };
      const schema = await ownIdentitySchema(args.db, args.tenant.nid, flow.identity_id);
      flow.ui.nodes = withoutDisabledMethods(
        [
          ...(schema ? schemaSettingsNodes(flow.csrf_token, schema, traits) : settingsNodes(flow.csrf_token, traits)),
          ...(await oidcSettingsNodes(args.db, args.tenant.nid, flow.identity_id)),
          ...(await samlSettingsNodes(args.db, args.tenant.nid, flow.identity_id)),
          ...(await totpNodes(args.db, args.tenant, args.settings, flow.identity_id, traits.email, flow.data)),
          ...(await lookupNodes(args.db, args.tenant, args.settings, flow.identity_id)),
          ...(await passkeyNodes(args.db, args.tenant, args.settings, flow.identity_id, traits.email, flow.data)),
          ...(await securityKeyNodes(args.db, args.tenant, args.settings, flow.identity_id, traits.email, flow.data, flow.type === 'browser')),
        ],
        args.settings,
      );
      flow.ui.messages = [texts.settingsSaved()];
      flow.state = 'success';
      const continueWith = (flow.data.continue_with as unknown[]) ?? [];
      // Kratos: the flow's return_to, else `selfservice.flows.settings.after.{method}.default_browser_return_url`,
      // else the flow-wide after URL; with neither the browser stays on the settings page (not the project's default).
      const after = args.settings.afterReturnUrls.settings;
      const redirect = flow.return_to ?? (flow.type === 'browser' ? (after?.byMethod[method] ?? after?.url ?? null) : null);
      if (redirect) continueWith.push({ action: 'redirect_browser_to', redirect_browser_to: redirect });
      flow.data.continue_with = continueWith;
      return { type: 'flow', status: 200, ...(redirect ? { redirect } : {}) };
    },
  };
}

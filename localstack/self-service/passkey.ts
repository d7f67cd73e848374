import { and, eq } from 'drizzle-orm';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Queryable } from '../db/types';
import { identityCredentials } from '../identity/schema';
import type { IdentitySettings } from '../kernel/identity-settings';
import { OIDC_TYPE_PREFIX } from '../identity/oidc-credentials';
import { input, type UiNode } from './nodes';
import { texts } from './texts';

/**
 * Passkeys as a first factor, as Kratos' `passkey` strategy: registration without a password (the browser
 * creates a discoverable credential from `passkey_create_data` and posts it as `passkey_register`), sign-in
 * from `passkey_challenge` (posted back as `passkey_login`, the authenticator naming its user by the user
 * handle), and the credential (`passkey`, identified by the user handle, its config the public keys).
 * WebAuthn itself is @simplewebauthn/server's.
 */

const TYPE = 'passkey';
/** The script that runs the browser's side of the ceremonies, served by the tenant at this path. */
export const PASSKEY_SCRIPT_PATH = '/.well-known/ory/webauthn.js';

/** The relying party: the config's `selfservice.methods.passkey.config.rp`, else the tenant's public origin. */
export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

export function relyingParty(settings: IdentitySettings, base: string): RelyingParty {
  const url = new URL(base);
  const rp = settings.passkeyRp;
  return {
    id: rp.id ?? url.hostname,
    name: rp.displayName ?? url.hostname,
    origins: rp.origins.length ? rp.origins : [url.origin],
  };
}

interface StoredPasskey {
  id: string;
  display_name?: string;
  public_key: string;
  sign_count: number;
  transports: string[];
  created_at: string;
}

/** The credential config Kratos keeps for passkeys: the user handle and every registered public key. */
export interface PasskeyConfig {
  user_handle: string;
  credentials: StoredPasskey[];
}

/** What a flow keeps between showing the options and verifying the browser's answer. */
export interface PasskeyFlowData {
  challenge: string;
  user_handle?: string;
}

const script = (base: string): UiNode =>
  ({
    type: 'script',
    group: 'webauthn',
    attributes: { id: 'webauthn_script', src: `${base}${PASSKEY_SCRIPT_PATH}`, type: 'text/javascript', async: true, crossorigin: 'anonymous', referrerpolicy: 'no-referrer', integrity: '', nonce: '', node_type: 'script' },
    messages: [],
    meta: {},
  }) as UiNode;

function trigger(name: string, fn: string, label: ReturnType<typeof texts.registerPasskey>): UiNode {
  const node = input('passkey', name, 'button', { label });
  Object.assign(node.attributes, { onclick: `window.${fn}()`, onclickTrigger: fn });
  return node;
}

/** The registration flow's passkey nodes and what the flow keeps to check the answer. */
export async function passkeyRegistrationNodes(rp: RelyingParty, base: string, displayNameField: string): Promise<{ nodes: UiNode[]; data: PasskeyFlowData }> {
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    // The browser's script fills in the name from the display-name trait before it asks the authenticator.
    userName: '',
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  const createData = { credentialOptions: { publicKey: options }, displayNameFieldName: displayNameField };
  return {
    nodes: [
      script(base),
      trigger('passkey_register_trigger', 'oryPasskeyRegistration', texts.registerPasskey()),
      input('passkey', 'passkey_register', 'hidden'),
      input('passkey', 'passkey_create_data', 'hidden', { value: JSON.stringify(createData) }),
    ],
    data: { challenge: options.challenge, user_handle: options.user.id },
  };
}

/** The login flow's passkey nodes (first factor) and the challenge the flow keeps. */
export async function passkeyLoginNodes(rp: RelyingParty, base: string): Promise<{ nodes: UiNode[]; data: PasskeyFlowData }> {
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'preferred', allowCredentials: [] });
  return {
    nodes: [
      script(base),
      trigger('passkey_login_trigger', 'oryPasskeyLogin', texts.signInWithPasskey()),
      input('passkey', 'passkey_login', 'hidden'),
      input('passkey', 'passkey_challenge', 'hidden', { value: JSON.stringify({ publicKey: options }) }),
    ],
    data: { challenge: options.challenge },
  };
}

function parseJson<T>(raw: string | undefined): T | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' ? (value as T) : null;
  } catch {
    return null;
  }
}

/** A new passkey credential from the browser's answer, or null when it does not verify against the flow's challenge. */
export async function verifyPasskeyRegistration(rp: RelyingParty, data: PasskeyFlowData | undefined, answer: string | undefined, now: Date): Promise<PasskeyConfig | null> {
  const response = parseJson<RegistrationResponseJSON>(answer);
  if (!response || !data?.challenge || !data.user_handle) return null;
  try {
    const result = await verifyRegistrationResponse({
      response,
      expectedChallenge: data.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    const { credential } = result.registrationInfo;
    return {
      user_handle: data.user_handle,
      credentials: [{ id: credential.id, public_key: isoBase64URL.fromBuffer(credential.publicKey), sign_count: credential.counter, transports: credential.transports ?? [], created_at: now.toISOString() }],
    };
  } catch {
    return null;
  }
}

export async function savePasskey(q: Queryable, nid: string, identityId: string, config: PasskeyConfig, now: Date): Promise<void> {
  await q.orm
    .insert(identityCredentials)
    .values({ nid, identity_id: identityId, type: TYPE, identifier: config.user_handle, secret: JSON.stringify(config), created_at: now, updated_at: now });
}

export type PasskeyLogin = { identityId: string } | 'unknown' | 'invalid';

/**
 * The identity a sign-in answer proves, its key's counter moved on: 'unknown' when no identity of the tenant
 * has the user handle or key it names, 'invalid' when the signature does not verify.
 */
export async function verifyPasskeyLogin(q: Queryable, nid: string, rp: RelyingParty, data: PasskeyFlowData | undefined, answer: string | undefined, now: Date): Promise<PasskeyLogin> {
  const response = parseJson<AuthenticationResponseJSON>(answer);
  if (!response || !data?.challenge || typeof response.response?.userHandle !== 'string') return 'invalid';
  const [row] = await q.orm
    .select()
    .from(identityCredentials)
    .where(and(eq(identityCredentials.nid, nid), eq(identityCredentials.type, TYPE), eq(identityCredentials.identifier, response.response.userHandle)));
  const config = row ? parseJson<PasskeyConfig>(row.secret) : null;
  const key = config?.credentials.find((c) => c.id === response.id);
  if (!row || !config || !key) return 'unknown';
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: data.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: false,
      credential: { id: key.id, publicKey: isoBase64URL.toBuffer(key.public_key), counter: key.sign_count },
    });
    if (!result.verified) return 'invalid';
    key.sign_count = result.authenticationInfo.newCounter;
  } catch {
    return 'invalid';
  }
  await q.orm
    .update(identityCredentials)
    .set({ secret: JSON.stringify(config), updated_at: now })
    .where(and(eq(identityCredentials.identity_id, row.identity_id), eq(identityCredentials.type, TYPE)));
  return { identityId: row.identity_id };
}

/** The identity's passkey credential (its user handle and keys), or null when it has none. */
export async function findPasskeys(q: Queryable, nid: string, identityId: string): Promise<PasskeyConfig | null> {
  const [row] = await q.orm
    .select({ secret: identityCredentials.secret })
    .from(identityCredentials)
    .where(and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, TYPE)));
  const config = row ? parseJson<PasskeyConfig>(row.secret) : null;
  return config && Array.isArray(config.credentials) ? config : null;
}

/**
 * How many ways the identity has to sign in without a second factor, as Kratos counts them before it lets one
 * go: a password, each passkey, each linked social provider, and sign-in codes while the project offers them.
 */
export async function countFirstFactors(q: Queryable, nid: string, identityId: string, settings: IdentitySettings): Promise<number> {
  const rows = await q.orm
    .select({ type: identityCredentials.type, secret: identityCredentials.secret })
    .from(identityCredentials)
    .where(and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId)));
  let count = settings.codeLogin.passwordless && settings.methods.code ? 1 : 0;
  for (const row of rows) {
    if (row.type === 'password' && settings.methods.password && row.secret) count += 1;
    else if (row.type.startsWith(OIDC_TYPE_PREFIX)) count += 1;
    else if (row.type === TYPE && settings.methods.passkey) count += parseJson<PasskeyConfig>(row.secret)?.credentials?.length ?? 0;
  }
  return count;
}

/** A key's id as Kratos shows it in `passkey_remove`: the raw credential id in hex. */
export const passkeyRemoveValue = (id: string) => Buffer.from(id, 'base64url').toString('hex');

const removeNode = (key: StoredPasskey, disabled: boolean): UiNode => {
  const name = key.display_name || 'unnamed';
  const node = input('passkey', 'passkey_remove', 'submit', { value: passkeyRemoveValue(key.id), label: texts.removePasskey(name, key.created_at) });
  Object.assign(node.attributes, { disabled });
  return node;
};

/**
 * The settings flow's passkey nodes (Kratos' passkey settings): a `passkey_remove` button per key (disabled when
 * it is the identity's last way to sign in), and "Add passkey" with the options of a new key under the
 * identity's user handle, its keys excluded so an authenticator does not register one twice.
 */
export async function passkeySettingsNodes(
  rp: RelyingParty,
  base: string,
  existing: PasskeyConfig | null,
  userName: string,
  firstFactors: number,
): Promise<{ nodes: UiNode[]; data: PasskeyFlowData }> {
  const keys = existing?.credentials ?? [];
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName,
    ...(existing?.user_handle ? { userID: isoBase64URL.toBuffer(existing.user_handle) } : {}),
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    excludeCredentials: keys.map((k) => ({ id: k.id, transports: k.transports as AuthenticatorTransport[] })),
  });
  return {
    nodes: [
      ...keys.map((k) => removeNode(k, firstFactors < 2)),
      script(base),
      trigger('passkey_register_trigger', 'oryPasskeySettingsRegistration', texts.addPasskey()),
      input('passkey', 'passkey_settings_register', 'hidden'),
      input('passkey', 'passkey_create_data', 'hidden', { value: JSON.stringify({ publicKey: options }) }),
    ],
    data: { challenge: options.challenge, user_handle: options.user.id },
  };
}

export type PasskeyAdded = 'added' | 'invalid' | 'duplicate';

/** Adds the key the browser's answer creates to the identity's passkeys (a first one creates the credential). */
export async function addPasskey(
  q: Queryable,
  nid: string,
  identityId: string,
  rp: RelyingParty,
  data: PasskeyFlowData | undefined,
  answer: string | undefined,
  now: Date,
): Promise<PasskeyAdded> {
  const created = await verifyPasskeyRegistration(rp, data, answer, now);
  const key = created?.credentials[0];
  if (!created || !key) return 'invalid';
  const existing = await findPasskeys(q, nid, identityId);
  if (!existing) {
    await savePasskey(q, nid, identityId, created, now);
    return 'added';
  }
  // The options carried the identity's user handle: a key made under another one would not sign this identity in.
  if (existing.user_handle !== created.user_handle) return 'invalid';
  if (existing.credentials.some((c) => c.id === key.id)) return 'duplicate';
  existing.credentials.push(key);
  await q.orm
    .update(identityCredentials)
    .set({ secret: JSON.stringify(existing), updated_at: now })
    .where(and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, TYPE)));
  return 'added';
}

export type PasskeyRemoved = 'removed' | 'missing' | 'last';

/** Removes the key `hexId` names, unless it is the identity's last way to sign in (the credential goes with its last key). */
export async function removePasskey(q: Queryable, nid: string, identityId: string, hexId: string, settings: IdentitySettings, now: Date): Promise<PasskeyRemoved> {
  const existing = await findPasskeys(q, nid, identityId);
  const kept = existing?.credentials.filter((c) => passkeyRemoveValue(c.id) !== hexId.toLowerCase()) ?? [];
  if (!existing || kept.length === existing.credentials.length) return 'missing';
  if ((await countFirstFactors(q, nid, identityId, settings)) < 2) return 'last';
  const ofIdentity = and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, TYPE));
  if (kept.length === 0) await q.orm.delete(identityCredentials).where(ofIdentity);
  else await q.orm.update(identityCredentials).set({ secret: JSON.stringify({ ...existing, credentials: kept }), updated_at: now }).where(ofIdentity);
  return 'removed';
}

/**
 * The browser's side: reads the options node, asks the authenticator through the WebAuthn JSON methods of
 * the browser, puts the answer in the hidden input and submits its form. Served as a plain script.
 */
export const PASSKEY_SCRIPT = `(function () {
  function field(name) { return document.getElementsByName(name)[0]; }
  window.oryPasskeyRegistration = function () {
    var data = JSON.parse(field('passkey_create_data').value);
    var result = field('passkey_register');
    var form = result.closest('form');
    var nameField = form.querySelector('[name="' + data.displayNameFieldName + '"]') || field(data.displayNameFieldName);
    var name = nameField ? nameField.value : '';
    if (!name) { if (nameField) nameField.reportValidity(); return; }
    var options = data.credentialOptions.publicKey;
    options.user.name = name;
    options.user.displayName = name;
    navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) }).then(function (credential) {
      result.value = JSON.stringify(credential.toJSON());
      form.submit();
    }).catch(function (err) { console.error('passkey registration failed', err); });
  };
  window.oryPasskeySettingsRegistration = function () {
    var options = JSON.parse(field('passkey_create_data').value).publicKey;
    var result = field('passkey_settings_register');
    navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options) }).then(function (credential) {
      result.value = JSON.stringify(credential.toJSON());
      result.closest('form').submit();
    }).catch(function (err) { console.error('adding a passkey failed', err); });
  };
  window.oryWebAuthnRegistration = function (options) {
    var result = field('webauthn_register');
    navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(options.publicKey) }).then(function (credential) {
      result.value = JSON.stringify(credential.toJSON());
      result.closest('form').submit();
    }).catch(function (err) { console.error('adding a security key failed', err); });
  };
  window.oryWebAuthnLogin = function (options) {
    var result = field('webauthn_login');
    navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options.publicKey) }).then(function (credential) {
      result.value = JSON.stringify(credential.toJSON());
      result.closest('form').submit();
    }).catch(function (err) { console.error('security key sign-in failed', err); });
  };
  window.oryPasskeyLogin = function () {
    var data = JSON.parse(field('passkey_challenge').value);
    var result = field('passkey_login');
    navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(data.publicKey) }).then(function (credential) {
      result.value = JSON.stringify(credential.toJSON());
      result.closest('form').submit();
    }).catch(function (err) { console.error('passkey sign-in failed', err); });
  };
})();
`;

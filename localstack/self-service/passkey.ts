import { and, eq } from 'drizzle-orm';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Queryable } from '../db/types';
import { identityCredentials } from '../identity/schema';
import type { IdentitySettings } from '../kernel/identity-settings';
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
  public_key: string;
  sign_count: number;
  transports: string[];
  created_at: string;
}

/** The credential config Kratos keeps for passkeys: the user handle and every registered public key. */
interface PasskeyConfig {
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

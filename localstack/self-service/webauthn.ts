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
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import type { Queryable } from '../db/types';
import { identityCredentials } from '../identity/schema';
import type { IdentitySettings } from '../kernel/identity-settings';
import { input, type UiNode } from './nodes';
import { PASSKEY_SCRIPT_PATH, type RelyingParty } from './passkey';
import { texts } from './texts';

/**
 * Security keys as a second factor, as Kratos' `webauthn` strategy with `passwordless: false`: the settings
 * flow adds a named key (`webauthn_register_displayname`, `webauthn_register`) or removes one
 * (`webauthn_remove`, the key's hex id), and a login flow with `aal=aal2` asks a key of the signed-in identity
 * (`webauthn_login`). Only browser flows offer it, as in Kratos. The credential is `webauthn`, its user handle
 * the identity's id. WebAuthn itself is @simplewebauthn/server's.
 */

const TYPE = 'webauthn';

/** The relying party: `selfservice.methods.webauthn.config.rp`, else the tenant's public origin. */
export function webauthnRelyingParty(settings: IdentitySettings, base: string): RelyingParty {
  const url = new URL(base);
  const rp = settings.webauthnRp;
  return { id: rp.id ?? url.hostname, name: rp.displayName ?? url.hostname, origins: rp.origins.length ? rp.origins : [url.origin] };
}

interface SecurityKey {
  id: string;
  public_key: string;
  sign_count: number;
  transports: string[];
  display_name: string;
  added_at: string;
  is_passwordless: boolean;
}

interface WebauthnConfig {
  user_handle: string;
  credentials: SecurityKey[];
}

/** What a flow keeps between showing the options and checking the browser's answer. */
export interface WebauthnFlowData {
  challenge: string;
}

function parseJson<T>(raw: string | undefined | null): T | null {
  if (!raw) return null;
  try {
    const value: unknown = JSON.parse(raw);
    return value && typeof value === 'object' ? (value as T) : null;
  } catch {
    return null;
  }
}

const ofIdentity = (nid: string, identityId: string) =>
  and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, TYPE));

export async function findSecurityKeys(q: Queryable, nid: string, identityId: string): Promise<WebauthnConfig | null> {
  const [row] = await q.orm.select({ secret: identityCredentials.secret }).from(identityCredentials).where(ofIdentity(nid, identityId));
  const config = parseJson<WebauthnConfig>(row?.secret);
  return config && Array.isArray(config.credentials) && config.credentials.length > 0 ? config : null;
}

const hexOf = (id: string) => Buffer.from(id, 'base64url').toString('hex');

const script = (base: string): UiNode =>
  ({
    type: 'script',
    group: 'webauthn',
    attributes: { id: 'webauthn_script', src: `${base}${PASSKEY_SCRIPT_PATH}`, type: 'text/javascript', async: true, crossorigin: 'anonymous', referrerpolicy: 'no-referrer', integrity: '', nonce: '', node_type: 'script' },
    messages: [],
    meta: {},
  }) as UiNode;

function trigger(name: string, fn: string, options: string, label: ReturnType<typeof texts.addSecurityKey>): UiNode {
  const node = input('webauthn', name, 'button', { value: options, label });
  Object.assign(node.attributes, { onclick: `window.${fn}(${options})`, onclickTrigger: fn });
  return node;
}

/** A uuid's 16 bytes: Kratos' user handle of a security key is the identity's id. */
const uuidBytes = (id: string) => isoUint8Array.fromHex(id.replace(/-/g, ''));

/** The settings flow's `webauthn` nodes: a remove button per key, the new key's name and "Add security key". */
export async function securityKeySettingsNodes(q: Queryable, nid: string, rp: RelyingParty, base: string, identityId: string, userName: string): Promise<{ nodes: UiNode[]; data: WebauthnFlowData }> {
  const keys = (await findSecurityKeys(q, nid, identityId))?.credentials ?? [];
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName,
    userID: uuidBytes(identityId),
    attestationType: 'none',
    authenticatorSelection: { residentKey: 'discouraged', userVerification: 'discouraged' },
    excludeCredentials: keys.map((k) => ({ id: k.id, transports: k.transports as AuthenticatorTransport[] })),
  });
  return {
    nodes: [
      ...keys.map((k) => {
        const node = input('webauthn', 'webauthn_remove', 'submit', { value: hexOf(k.id), label: texts.removeSecurityKey(k.display_name || 'unnamed', k.added_at) });
        return node;
      }),
      script(base),
      input('webauthn', 'webauthn_register_displayname', 'text', { value: '', label: texts.securityKeyName() }),
      trigger('webauthn_register_trigger', 'oryWebAuthnRegistration', JSON.stringify({ publicKey: options }), texts.addSecurityKey()),
      input('webauthn', 'webauthn_register', 'hidden', { value: '' }),
    ],
    data: { challenge: options.challenge },
  };
}

export type SecurityKeyAdded = 'added' | 'invalid' | 'duplicate';

/** Adds the security key the browser's answer creates, named `displayName`. */
export async function addSecurityKey(
  q: Queryable,
  nid: string,
  identityId: string,
  rp: RelyingParty,
  data: WebauthnFlowData | undefined,
  answer: string | undefined,
  displayName: string,
  now: Date,
): Promise<SecurityKeyAdded> {
  const response = parseJson<RegistrationResponseJSON>(answer);
  if (!response || !data?.challenge) return 'invalid';
  let key: SecurityKey;
  try {
    const result = await verifyRegistrationResponse({ response, expectedChallenge: data.challenge, expectedOrigin: rp.origins, expectedRPID: rp.id, requireUserVerification: false });
    if (!result.verified) return 'invalid';
    const { credential } = result.registrationInfo;
    key = {
      id: credential.id,
      public_key: isoBase64URL.fromBuffer(credential.publicKey),
      sign_count: credential.counter,
      transports: credential.transports ?? [],
      display_name: displayName,
      added_at: new Date(Math.round(now.getTime() / 1000) * 1000).toISOString(),
      is_passwordless: false,
    };
  } catch {
    return 'invalid';
  }
  const existing = await findSecurityKeys(q, nid, identityId);
  if (existing?.credentials.some((c) => c.id === key.id)) return 'duplicate';
  const config: WebauthnConfig = { user_handle: isoBase64URL.fromBuffer(uuidBytes(identityId)), credentials: [...(existing?.credentials ?? []), key] };
  const [row] = await q.orm.select({ id: identityCredentials.identity_id }).from(identityCredentials).where(ofIdentity(nid, identityId));
  if (row) await q.orm.update(identityCredentials).set({ secret: JSON.stringify(config), updated_at: now }).where(ofIdentity(nid, identityId));
  // Identified by the identity's id: a second factor is never looked up by what a stranger types.
  else await q.orm.insert(identityCredentials).values({ nid, identity_id: identityId, type: TYPE, identifier: identityId, secret: JSON.stringify(config), created_at: now, updated_at: now });
  return 'added';
}

/** Removes the key `hexId` names ('missing' when the identity has none such). A second factor never locks anyone out. */
export async function removeSecurityKey(q: Queryable, nid: string, identityId: string, hexId: string, now: Date): Promise<'removed' | 'none' | 'missing'> {
  const existing = await findSecurityKeys(q, nid, identityId);
  if (!existing) return 'none';
  const kept = existing.credentials.filter((c) => hexOf(c.id) !== hexId.toLowerCase());
  if (kept.length === existing.credentials.length) return 'missing';
  if (kept.length === 0) await q.orm.delete(identityCredentials).where(ofIdentity(nid, identityId));
  else await q.orm.update(identityCredentials).set({ secret: JSON.stringify({ ...existing, credentials: kept }), updated_at: now }).where(ofIdentity(nid, identityId));
  return 'removed';
}

/** The `aal2` login nodes of an identity with security keys: the options name its keys. Null when it has none. */
export async function securityKeyLoginNodes(q: Queryable, nid: string, rp: RelyingParty, base: string, identityId: string): Promise<{ nodes: UiNode[]; data: WebauthnFlowData } | null> {
  const keys = (await findSecurityKeys(q, nid, identityId))?.credentials ?? [];
  if (!keys.length) return null;
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'discouraged',
    allowCredentials: keys.map((k) => ({ id: k.id, transports: k.transports as AuthenticatorTransport[] })),
  });
  return {
    nodes: [
      script(base),
      trigger('webauthn_login_trigger', 'oryWebAuthnLogin', JSON.stringify({ publicKey: options }), texts.useSecurityKey()),
      input('webauthn', 'webauthn_login', 'hidden', { value: '' }),
    ],
    data: { challenge: options.challenge },
  };
}

/** Whether the answer is a signature of one of the identity's keys over the flow's challenge (its counter moved on). */
export async function verifySecurityKeyLogin(q: Queryable, nid: string, identityId: string, rp: RelyingParty, data: WebauthnFlowData | undefined, answer: string | undefined, now: Date): Promise<boolean> {
  const response = parseJson<AuthenticationResponseJSON>(answer);
  const config = await findSecurityKeys(q, nid, identityId);
  const key = config?.credentials.find((c) => c.id === response?.id);
  if (!response || !data?.challenge || !config || !key) return false;
  try {
    const result = await verifyAuthenticationResponse({
      response,
      expectedChallenge: data.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: false,
      credential: { id: key.id, publicKey: isoBase64URL.toBuffer(key.public_key), counter: key.sign_count },
    });
    if (!result.verified) return false;
    key.sign_count = result.authenticationInfo.newCounter;
  } catch {
    return false;
  }
  await q.orm.update(identityCredentials).set({ secret: JSON.stringify(config), updated_at: now }).where(ofIdentity(nid, identityId));
  return true;
}

import { findSecurityKeys } from './webauthn';
import { codeAddresses } from './code-login';
import { randomInt } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Queryable } from '../db/types';
import { identityCredentials } from '../identity/schema';
import { OryError } from '../kernel/errors';
import type { IdentitySettings } from '../kernel/identity-settings';
import { input, submit, textNode, type UiNode } from './nodes';
import { texts } from './texts';
import { findTotpUrl } from './totp';

/**
 * Backup recovery codes (Kratos' `lookup_secret` strategy), a second factor: twelve one-time codes the settings
 * flow generates and shows, kept in the flow until the user confirms them; revealed again or disabled later;
 * each accepted once by a login that asks for `aal2`. The credential (`lookup_secret`, identified by the
 * identity's id) holds Kratos' config, `{ recovery_codes: [{ code, used_at? }] }`.
 */

const TYPE = 'lookup_secret';
/** Kratos' count and shape: twelve codes of eight lower-case letters and digits. */
export const LOOKUP_CODE_COUNT = 12;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

export interface RecoveryCode {
  code: string;
  used_at?: string;
}

export function newRecoveryCodes(): RecoveryCode[] {
  return Array.from({ length: LOOKUP_CODE_COUNT }, () => ({
    code: Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join(''),
  }));
}

const parseCodes = (secret: string): RecoveryCode[] => {
  const parsed = JSON.parse(secret) as { recovery_codes?: RecoveryCode[] };
  return Array.isArray(parsed.recovery_codes) ? parsed.recovery_codes : [];
};

/** The identity's codes, or null when it has none set up. */
export async function findRecoveryCodes(q: Queryable, nid: string, identityId: string, forUpdate = false): Promise<RecoveryCode[] | null> {
  const query = q.orm
    .select({ secret: identityCredentials.secret })
    .from(identityCredentials)
    .where(and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, TYPE)));
  const [row] = forUpdate ? await query.for('update') : await query;
  if (!row) return null;
  const codes = parseCodes(row.secret);
  return codes.length > 0 ? codes : null;
}

export async function saveRecoveryCodes(q: Queryable, nid: string, identityId: string, codes: RecoveryCode[], now: Date): Promise<void> {
  const secret = JSON.stringify({ recovery_codes: codes });
  await q.orm
    .insert(identityCredentials)
    .values({ nid, identity_id: identityId, type: TYPE, identifier: identityId, secret, created_at: now, updated_at: now })
    .onConflictDoUpdate({ target: [identityCredentials.identity_id, identityCredentials.type], set: { secret, updated_at: now } });
}

export async function deleteRecoveryCodes(q: Queryable, nid: string, identityId: string): Promise<void> {
  await q.orm
    .delete(identityCredentials)
    .where(and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, TYPE)));
}

export type UseOutcome = 'used' | 'none' | 'already_used' | 'invalid';

/** Marks `code` used at `now` when it is one of the identity's unused codes; the row is locked meanwhile. */
export async function useRecoveryCode(q: Queryable, nid: string, identityId: string, code: string, now: Date): Promise<UseOutcome> {
  const codes = await findRecoveryCodes(q, nid, identityId, true);
  if (!codes) return 'none';
  const typed = code.trim();
  const match = codes.find((c) => c.code === typed);
  if (!match) return 'invalid';
  if (match.used_at) return 'already_used';
  match.used_at = new Date(Math.round(now.getTime() / 1000) * 1000).toISOString();
  await saveRecoveryCodes(q, nid, identityId, codes, now);
  return 'used';
}

/** Go's `time.Time` String() of a UTC time, as Kratos formats "Secret was used at …". */
const goTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 19)} +0000 UTC`;

/** The `lookup_secret_codes` text node: each unused code, or "used" with when it was. */
export function codesNode(codes: RecoveryCode[]): UiNode {
  const messages = codes.map((c) => (c.used_at ? texts.lookupSecretUsed(goTime(c.used_at), c.used_at) : texts.lookupSecret(c.code)));
  const formatted = codes.map((c) => (c.used_at ? 'used' : c.code));
  return textNode('lookup_secret', 'lookup_secret_codes', texts.lookupSecretList(formatted, messages), texts.lookupSecretsLabel());
}

const button = (name: string, label: ReturnType<typeof texts.revealLookup>) => input('lookup_secret', name, 'submit', { value: 'true', label });
export const revealNode = () => button('lookup_secret_reveal', texts.revealLookup());
export const regenerateNode = () => button('lookup_secret_regenerate', texts.regenerateLookup());
export const disableNode = () => button('lookup_secret_disable', texts.disableLookup());
export const confirmNode = () => button('lookup_secret_confirm', texts.confirmLookup());

/** The settings flow's `lookup_secret` nodes before any action: reveal and disable with codes set up, else generate. */
export const lookupSettingsNodes = (hasCodes: boolean): UiNode[] => (hasCodes ? [revealNode(), disableNode()] : [regenerateNode()]);

/** The login flow's nodes for a backup code (`aal=aal2` of an identity that has codes). */
export const lookupLoginNodes = (): UiNode[] => [
  input('lookup_secret', 'lookup_secret', 'text', { value: '', required: true, label: texts.lookupLoginLabel() }),
  submit('lookup_secret', 'lookup_secret', texts.useLookup()),
];

/** Kratos' refusal to reveal codes an identity does not have. */
export const noCodesToReveal = () => new OryError(400, { reason: 'Can not reveal lookup codes because you have none.' });
/** Kratos' refusal to confirm codes the flow did not generate. */
export const nothingToConfirm = () => new OryError(400, { reason: 'You must (re-)generate recovery backup codes before you can save them.' });

/**
 * Whether the identity has a second factor the project offers (an authenticator app or backup codes): what
 * `highest_available` makes a session prove before it counts (Kratos counts each strategy's active credentials).
 */
export async function hasSecondFactor(q: Queryable, nid: string, identityId: string, settings: IdentitySettings): Promise<boolean> {
  if (settings.methods.totp && (await findTotpUrl(q, nid, identityId))) return true;
  if (settings.methods.webauthn && (await findSecurityKeys(q, nid, identityId))) return true;
  if (settings.codeLogin.mfa && settings.methods.code && (await codeAddresses(q, nid, identityId, settings)).length > 0) return true;
  return settings.methods.lookup_secret && (await findRecoveryCodes(q, nid, identityId)) !== null;
}

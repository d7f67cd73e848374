import { and, eq } from 'drizzle-orm';
import { Secret, TOTP, URI } from 'otpauth';
import QRCode from 'qrcode';
import type { Queryable } from '../db/types';
import { identityCredentials } from '../identity/schema';
import { OryError } from '../kernel/errors';
import type { IdentitySettings } from '../kernel/identity-settings';
import { addNodeMessage, image, input, submit, textNode, type UiNode } from './nodes';
import { texts } from './texts';

/**
 * The authenticator app (TOTP) as a second factor, as Kratos' `totp` strategy: enrolment in the settings flow
 * (a new key shown as a QR code and its secret, kept in the flow until a code of it is typed in), the code in
 * a login flow that asks for `aal2`, and the credential (`totp`, identified by the identity's id, its secret the
 * key's otpauth:// URL).
 */

const TYPE = 'totp';
/** Kratos' leeway: the code of the period before or after the current one is accepted too. */
const WINDOW = 1;

export async function findTotpUrl(q: Queryable, nid: string, identityId: string): Promise<string | null> {
  const [row] = await q.orm
    .select({ secret: identityCredentials.secret })
    .from(identityCredentials)
    .where(and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, TYPE)));
  return row?.secret ?? null;
}

export async function saveTotpUrl(q: Queryable, nid: string, identityId: string, url: string, now: Date): Promise<void> {
  await q.orm
    .insert(identityCredentials)
    .values({ nid, identity_id: identityId, type: TYPE, identifier: identityId, secret: url, created_at: now, updated_at: now })
    .onConflictDoUpdate({ target: [identityCredentials.identity_id, identityCredentials.type], set: { secret: url, updated_at: now } });
}

export async function deleteTotp(q: Queryable, nid: string, identityId: string): Promise<void> {
  await q.orm
    .delete(identityCredentials)
    .where(and(eq(identityCredentials.nid, nid), eq(identityCredentials.identity_id, identityId), eq(identityCredentials.type, TYPE)));
}

/** Whether `code` is a code of the key at `url` at the stack's time `now`. */
export function totpCodeValid(url: string, code: string, now: Date): boolean {
  const key = URI.parse(url);
  if (!(key instanceof TOTP)) return false;
  return key.validate({ token: code.trim(), timestamp: now.getTime(), window: WINDOW }) !== null;
}

/** A new key of `issuer` for `accountName`, as its otpauth:// URL. */
export function newTotpUrl(issuer: string, accountName: string): string {
  return new TOTP({ issuer, label: accountName, algorithm: 'SHA1', digits: 6, period: 30, secret: new Secret({ size: 20 }) }).toString();
}

/** The issuer of the tenant's keys: the config's, else the host of its public URL (Kratos' default). */
export const totpIssuer = (settings: IdentitySettings, base: string) => settings.totpIssuer ?? new URL(base).hostname;

/**
 * The settings flow's `totp` nodes: the unlink button when the identity has an authenticator app, else the
 * pending key (`url`) to scan, its secret, the code input and the save button.
 */
export async function totpSettingsNodes(enrolled: boolean, url: string | null): Promise<UiNode[]> {
  if (enrolled) return [input('totp', 'totp_unlink', 'submit', { value: 'true', required: true, label: texts.unlinkTotp() })];
  if (!url) return [];
  const key = URI.parse(url) as TOTP;
  return [
    image('totp', 'totp_qr', await QRCode.toDataURL(url, { width: 256, margin: 1 }), 256, texts.totpQrCode()),
    textNode('totp', 'totp_secret_key', texts.totpSecret(key.secret.base32), texts.totpSecretLabel()),
    input('totp', 'totp_code', 'text', { required: true, label: texts.labelVerifyCode() }),
    submit('totp', 'totp', texts.labelSave()),
  ];
}

/** The login flow's second-factor nodes (`aal=aal2` or a refresh of an identity with an authenticator app). */
export const totpLoginNodes = (): UiNode[] => [
  input('totp', 'totp_code', 'text', { value: '', required: true, label: texts.totpCodeLabel() }),
  submit('totp', 'totp', texts.useAuthenticator()),
];

/** Checks a typed-in code against the pending key of a settings flow; the node's message says what is wrong. */
export function checkEnrolmentCode(nodes: UiNode[], url: string, code: string | undefined, now: Date): boolean {
  if (!code) {
    addNodeMessage(nodes, 'totp_code', texts.required('totp_code'));
    return false;
  }
  if (!totpCodeValid(url, code, now)) {
    addNodeMessage(nodes, 'totp_code', texts.totpVerifierWrong());
    return false;
  }
  return true;
}

/** Kratos' refusal of `aal=aal2` without a session (login.ErrSessionRequiredForHigherAAL). */
export const sessionRequiredForHigherAal = () =>
  new OryError(401, {
    id: 'session_aal1_required',
    message: 'aal2 and aal3 can only be requested if a session exists already',
    reason: 'You can not requested a higher AAL (AAL2/AAL3) without an active session.',
  });

import { randomBytes } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { HydraError } from './hydra-clients';
import type { ArtefactStore } from './storage';

/**
 * Hydra's device verification over oidc-provider's device flow (RFC 8628). `/oauth2/device/verify` records a
 * device request (its `device_challenge`, holding the xsrf secret oidc-provider gave the browser's session) and
 * sends the browser to the project's device verification page instead of oidc-provider's own form. That page
 * asks for the user code and accepts the challenge with it (`PUT /admin/oauth2/auth/requests/device/accept`),
 * whose `redirect_to` comes back to `/oauth2/device/verify?device_verifier=…`: the verifier becomes
 * oidc-provider's own confirmation of the code, and the flow goes on to login and consent as an authorization
 * request does. The device polls the token endpoint meanwhile; oidc-provider answers every poll.
 */

export const DEVICE_REQUEST = 'DeviceRequest';
export const DEVICE_VERIFIER = 'DeviceVerifier';

/** The path oidc-provider verifies user codes on (Hydra's). */
export const DEVICE_VERIFY_PATH = '/oauth2/device/verify';

const notFound = () => new HydraError(404, 'Not Found', 'Unable to locate the requested resource');
const invalidRequest = (hint: string) =>
  new HydraError(400, 'invalid_request', `The request is missing a required parameter, includes an invalid parameter value, includes a parameter more than once, or is otherwise malformed. ${hint}`);
const unknownCode = () => invalidRequest("The 'user_code' session could not be found or has expired or is otherwise malformed.");
const token = () => randomBytes(32).toString('hex');

/** oidc-provider stores a user code without its mask and in upper case (`bcdf-ghjk` is `BCDFGHJK`). */
export const normalizeUserCode = (input: string) => input.toUpperCase().replace(/\W/g, '');

export interface DeviceDeps {
  artefacts: ArtefactStore;
  /** Seconds since the epoch, from the stack's clock. */
  now(): number;
}

/** Records the browser's device request and answers where its verification page is, with the challenge. */
export async function createDeviceRequest(
  deps: DeviceDeps & { lifespan: number; verificationUrl: string },
  ctx: KoaContextWithOIDC,
  userCode?: string,
): Promise<string> {
  const state = ctx.oidc.session?.state as { secret?: string } | undefined;
  const challenge = token();
  const requestedAt = deps.now();
  await deps.artefacts.upsert(DEVICE_REQUEST, challenge, {
    payload: { xsrf: state?.secret ?? '', requested_at: requestedAt, expires_at: requestedAt + deps.lifespan },
    expiresAt: requestedAt + deps.lifespan,
    grantId: null,
    userCode: null,
    uid: null,
  });
  const url = new URL(deps.verificationUrl);
  url.searchParams.set('device_challenge', challenge);
  if (userCode) url.searchParams.set('user_code', userCode);
  return url.href;
}

/**
 * Hydra's `acceptUserCodeRequest`: the user code must belong to a device authorization still waiting for its
 * user; the answer sends the browser on to the login of that authorization.
 */
export async function acceptDeviceRequest(deps: DeviceDeps & { provider: Provider }, challenge: string, userCode: string, issuer: string) {
  if (!challenge) throw invalidRequest("Query parameter 'device_challenge' is not defined but should have been.");
  if (!userCode) throw invalidRequest("Field 'user_code' must not be empty.");
  const request = await deps.artefacts.find(DEVICE_REQUEST, challenge);
  if (!request || Number(request.payload.expires_at) <= deps.now()) throw notFound();
  const code = await deps.provider.DeviceCode.findByUserCode(normalizeUserCode(userCode), { ignoreExpiration: true });
  if (!code || code.isExpired || code.accountId || code.error || code.inFlight) throw unknownCode();
  const verifier = token();
  await deps.artefacts.upsert(DEVICE_VERIFIER, verifier, {
    payload: { challenge, user_code: userCode },
    expiresAt: Number(request.payload.expires_at),
    grantId: null,
    userCode: null,
    uid: null,
  });
  const to = new URL(`${issuer}${DEVICE_VERIFY_PATH}`);
  to.searchParams.set('device_verifier', verifier);
  to.searchParams.set('client_id', String(code.clientId ?? ''));
  return { redirect_to: to.href };
}

/**
 * Redeems a verifier once: the xsrf secret of the browser's session and the user code, which oidc-provider's
 * confirmation of the code takes. Throws Hydra's refusal when the verifier is unknown, used or expired.
 */
export async function redeemDeviceVerifier(deps: DeviceDeps, verifier: string): Promise<{ xsrf: string; userCode: string }> {
  const found = verifier ? await deps.artefacts.find(DEVICE_VERIFIER, verifier) : null;
  if (!found) throw notFound();
  await deps.artefacts.destroy(DEVICE_VERIFIER, verifier);
  const challenge = String(found.payload.challenge ?? '');
  const request = await deps.artefacts.find(DEVICE_REQUEST, challenge);
  if (!request || Number(request.payload.expires_at) <= deps.now()) throw notFound();
  await deps.artefacts.destroy(DEVICE_REQUEST, challenge);
  return { xsrf: String(request.payload.xsrf ?? ''), userCode: String(found.payload.user_code ?? '') };
}

/**
 * oidc-provider's own user-code form (input or confirmation) with a line above it: what a browser sees of a
 * refused code (unknown, used or expired), or of a project without a device verification page.
 */
export function deviceErrorPage(form: string, description: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const target = form.includes('op.deviceConfirmForm') ? 'op.deviceConfirmForm' : 'op.deviceInputForm';
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Device sign-in</title></head><body><p role="alert">${esc(description)}</p>${form}<button type="submit" form="${target}">Continue</button></body></html>`;
}

import { randomBytes } from 'node:crypto';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { withoutSecret } from './challenges';
import { clientView, HydraError } from './hydra-clients';
import type { ArtefactStore, ClientStore } from './storage';

/**
 * Hydra's logout requests over oidc-provider's RP-initiated logout. `/oauth2/sessions/logout` with a signed-in
 * browser records a logout request (its challenge) instead of oidc-provider's own confirmation page and sends the
 * browser to the project's logout URL with `logout_challenge`. Accepting it answers a `redirect_to` back to
 * `/oauth2/sessions/logout?logout_verifier=…`, which ends the session the way oidc-provider's confirmation does;
 * rejecting it leaves the session as it was (Hydra answers 204 and leaves the next step to the logout page).
 */

export const LOGOUT_REQUEST = 'LogoutRequest';
export const LOGOUT_VERIFIER = 'LogoutVerifier';

const notFound = () => new HydraError(404, 'Not Found', 'Unable to locate the requested resource');
const expired = () =>
  new HydraError(401, 'request_unauthorized', 'The request could not be authorized. The logout request has expired, please try the flow again.');

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
const token = () => randomBytes(32).toString('hex');

export interface LogoutDeps {
  artefacts: ArtefactStore;
  clients: ClientStore;
  /** Seconds since the epoch, from the stack's clock. */
  now(): number;
}

/** What oidc-provider knows when a signed-in browser asks to log out, recorded as a logout request. */
export async function createLogoutRequest(
  deps: LogoutDeps & { lifespan: number; logoutUrl: string },
  ctx: KoaContextWithOIDC,
): Promise<string> {
  const session = ctx.oidc.session!;
  const state = session.state as { secret?: string } | undefined;
  const challenge = token();
  const requestedAt = deps.now();
  const params = ctx.oidc.params ?? {};
  await deps.artefacts.upsert(LOGOUT_REQUEST, challenge, {
    payload: {
      subject: session.accountId ?? '',
      sid: session.uid,
      request_url: ctx.originalUrl ?? ctx.url,
      rp_initiated: Boolean(params.id_token_hint),
      client_id: ctx.oidc.client?.clientId ?? null,
      requested_at: requestedAt,
      expires_at: requestedAt + deps.lifespan,
      xsrf: state?.secret ?? '',
    },
    expiresAt: null,
    grantId: null,
    userCode: null,
    uid: null,
  });
  const url = new URL(deps.logoutUrl);
  url.searchParams.set('logout_challenge', challenge);
  return url.href;
}

async function requestOf(deps: LogoutDeps, challenge: string) {
  const found = challenge ? await deps.artefacts.find(LOGOUT_REQUEST, challenge) : null;
  if (!found) throw notFound();
  if (Number(found.payload.expires_at) <= deps.now()) throw expired();
  return found.payload;
}

/** Hydra's `oAuth2LogoutRequest`: the client (without its secret) only when the logout names one. */
export async function getLogoutRequest(deps: LogoutDeps, challenge: string) {
  const p = await requestOf(deps, challenge);
  const client = typeof p.client_id === 'string' ? await deps.clients.get(p.client_id) : null;
  return {
    challenge,
    subject: String(p.subject ?? ''),
    ...(p.sid ? { sid: String(p.sid) } : {}),
    request_url: String(p.request_url ?? ''),
    rp_initiated: p.rp_initiated === true,
    expires_at: iso(Number(p.expires_at)),
    requested_at: iso(Number(p.requested_at)),
    client: client ? clientView(withoutSecret(client)) : null,
  };
}

/** Accepting a logout request gives the browser a one-time verifier that ends the session at the public endpoint. */
export async function acceptLogoutRequest(deps: LogoutDeps, challenge: string, issuer: string) {
  const p = await requestOf(deps, challenge);
  const verifier = token();
  await deps.artefacts.upsert(LOGOUT_VERIFIER, verifier, {
    payload: { challenge, expires_at: p.expires_at },
    expiresAt: null,
    grantId: null,
    userCode: null,
    uid: null,
  });
  const to = new URL(`${issuer}/oauth2/sessions/logout`);
  to.searchParams.set('logout_verifier', verifier);
  return { redirect_to: to.href };
}

/** Hydra only checks that the request exists and has not expired. */
export async function rejectLogoutRequest(deps: LogoutDeps, challenge: string): Promise<void> {
  await requestOf(deps, challenge);
}

/**
 * Redeems a verifier once: the xsrf secret oidc-provider gave the browser's session when the logout began,
 * which its confirmation step checks. Throws Hydra's refusal when the verifier is unknown, used or expired.
 */
export async function redeemLogoutVerifier(deps: LogoutDeps, verifier: string): Promise<string> {
  const found = verifier ? await deps.artefacts.find(LOGOUT_VERIFIER, verifier) : null;
  if (!found) throw notFound();
  await deps.artefacts.destroy(LOGOUT_VERIFIER, verifier);
  const request = await requestOf(deps, String(found.payload.challenge ?? ''));
  await deps.artefacts.destroy(LOGOUT_REQUEST, String(found.payload.challenge));
  return String(request.xsrf ?? '');
}

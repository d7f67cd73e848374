import { randomBytes, randomUUID } from 'node:crypto';
import type { AuthenticatorAssuranceLevel, Session, SessionAuthenticationMethod, SessionDevice } from '@ory/client';
import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { recordEvent } from '../event/record';
import { userAgentFamily } from '../../shared/domain/metrics';
import type { Clock } from '../kernel/clock';
import type { Queryable } from '../db/types';
import { publicIdentity } from '../identity/service';
import { OryError } from '../kernel/errors';
import { identities, sessions, type SessionRow } from '../identity/schema';
import { hashToken, logoutTokenFor } from './token';
import type { Tenant } from '../kernel/tenant';

export type AuthMethod = 'password' | 'code' | 'code_recovery' | 'link_recovery' | 'oidc' | 'saml' | 'passkey';

export interface IssuedSession {
  id: string;
  token: string;
  expiresAt: Date;
}

/** Kratos' refusal to activate a session of an inactive identity (session.ErrIdentityDisabled). */
export const identityDisabled = (identityId: string) =>
  new OryError(400, {
    id: 'identity_disabled',
    message: 'identity is disabled',
    reason: 'This account was disabled.',
    details: { identity_id: identityId },
  });

/** Kratos' refusal of an aal1 session where a second factor is available (session.ErrAALNotSatisfied). */
export const aal2Required = (base: string, returnTo?: string) => {
  const url = new URL(`${base}/self-service/login/browser`);
  url.searchParams.set('aal', 'aal2');
  if (returnTo) url.searchParams.set('return_to', returnTo);
  const redirect = url.toString();
  return new OryError(403, {
    id: 'session_aal2_required',
    message: 'Session does not fulfill the requested Authenticator Assurance Level',
    reason:
      'An active session was found but it does not fulfill the requested Authenticator Assurance Level. Please verify yourself with a second factor to resolve this issue.',
    details: { redirect_browser_to: redirect },
    extra: { redirect_browser_to: redirect },
  });
};

/**
 * Creates a session of tenant `nid` for `identityId` authenticated by `method`; an inactive identity gets
 * none (Kratos' identity_disabled), however it proved who it is (a password, a recovery code or link).
 */
export async function issueSession(
  q: Queryable,
  req: FastifyRequest,
  nid: string,
  identityId: string,
  method: AuthMethod,
  lifespanMs: number,
  clock: Clock,
): Promise<IssuedSession> {
  const [identity] = await q.orm
    .select({ state: identities.state })
    .from(identities)
    .where(and(eq(identities.nid, nid), eq(identities.id, identityId)));
  if (identity?.state !== 'active') throw identityDisabled(identityId);
  const now = clock.now();
  const session: IssuedSession = {
    id: randomUUID(),
    token: `ory_st_${randomBytes(32).toString('base64url')}`,
    expiresAt: new Date(now.getTime() + lifespanMs),
  };
  const ua = req.headers['user-agent'];
  await q.orm.insert(sessions).values({
    id: session.id,
    nid,
    token_hash: hashToken(session.token),
    logout_token_hash: hashToken(logoutTokenFor(session.token)),
    identity_id: identityId,
    aal: 'aal1',
    authentication_methods: [{ method, aal: 'aal1', completed_at: now.toISOString() }],
    devices: [{ id: randomUUID(), ip_address: req.ip, user_agent: typeof ua === 'string' ? ua : '', location: '' }],
    authenticated_at: now,
    issued_at: now,
    expires_at: session.expiresAt,
  });
  await recordEvent(q, clock, nid, 'SessionIssued', { identity_id: identityId, session_id: session.id, method, aal: 'aal1', user_agent: userAgentFamily(typeof ua === 'string' ? ua : undefined) });
  return session;
}

/**
 * Raises session `sessionId` of tenant `nid` to aal2 after its identity proved a second factor (`method`):
 * the method joins its authentication methods and the session counts as authenticated now.
 */
export async function raiseSessionToAal2(q: Queryable, nid: string, sessionId: string, method: 'totp' | 'lookup_secret' | 'webauthn' | 'code', clock: Clock): Promise<void> {
  const now = clock.now();
  const [row] = await q.orm
    .select({ methods: sessions.authentication_methods })
    .from(sessions)
    .where(and(eq(sessions.nid, nid), eq(sessions.id, sessionId)));
  if (!row) return;
  await q.orm
    .update(sessions)
    .set({ aal: 'aal2', authenticated_at: now, authentication_methods: [...row.methods, { method, aal: 'aal2', completed_at: now.toISOString() }] })
    .where(and(eq(sessions.nid, nid), eq(sessions.id, sessionId)));
}

/**
 * The session cookie's attributes: the tenant's base path and domain, secure when served over HTTPS, or the
 * project's `session.cookie.*` settings.
 */
function sessionCookieAttributes(tenant: Tenant, secure: boolean) {
  const own = tenant.sessionCookieSettings;
  const domain = own?.domain ?? tenant.cookieDomain;
  return { path: own?.path ?? tenant.cookiePath, ...(domain ? { domain } : {}), httpOnly: true, sameSite: own?.sameSite ?? 'lax', secure: own?.secure ?? secure } as const;
}

/**
 * The tenant's session cookie. It lasts as long as the session unless the project set
 * `session.cookie.persistent: false`: then it has neither Max-Age nor Expires and ends with the browser (Kratos).
 */
export function setSessionCookie(reply: FastifyReply, tenant: Tenant, session: IssuedSession, secure: boolean): void {
  const persistent = tenant.sessionCookieSettings?.persistent ?? true;
  reply.setCookie(tenant.sessionCookie, session.token, { ...sessionCookieAttributes(tenant, secure), ...(persistent ? { expires: session.expiresAt } : {}) });
}

export function clearSessionCookie(reply: FastifyReply, tenant: Tenant, secure: boolean): void {
  reply.clearCookie(tenant.sessionCookie, sessionCookieAttributes(tenant, secure));
}

/** A session of tenant `nid` in Ory's wire format, with its identity. */
export async function sessionJson(q: Queryable, nid: string, sessionId: string, base: string): Promise<Session | null> {
  const [row] = await q.orm
    .select()
    .from(sessions)
    .where(and(eq(sessions.nid, nid), eq(sessions.id, sessionId)));
  if (!row) return null;
  return sessionRowJson(q, row, base);
}

export async function sessionRowJson(q: Queryable, row: SessionRow, base: string): Promise<Session> {
  const identity = await publicIdentity(q, row.nid, row.identity_id, base);
  return {
    id: row.id,
    active: true,
    expires_at: row.expires_at.toISOString(),
    authenticated_at: row.authenticated_at.toISOString(),
    authenticator_assurance_level: row.aal as AuthenticatorAssuranceLevel,
    authentication_methods: row.authentication_methods as SessionAuthenticationMethod[],
    issued_at: row.issued_at.toISOString(),
    ...(identity ? { identity } : {}),
    devices: row.devices as SessionDevice[],
  } satisfies Session;
}

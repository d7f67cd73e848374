import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/types';
import { identityJson } from './identities';
import { hashToken, logoutTokenFor, SESSION_COOKIE, type SessionRow } from './session';
import { CONSOLE_NID } from './tenant-id';

export type AuthMethod = 'password' | 'code_recovery';

export interface IssuedSession {
  id: string;
  token: string;
  expiresAt: Date;
}

/** Creates a session for `identityId` authenticated by `method`. */
export async function issueSession(
  q: Queryable,
  req: FastifyRequest,
  identityId: string,
  method: AuthMethod,
  lifespanMs: number,
): Promise<IssuedSession> {
  const now = new Date();
  const session: IssuedSession = {
    id: randomUUID(),
    token: `ory_st_${randomBytes(32).toString('base64url')}`,
    expiresAt: new Date(now.getTime() + lifespanMs),
  };
  const methods = [{ method, aal: 'aal1', completed_at: now.toISOString() }];
  const ua = req.headers['user-agent'];
  const devices = [{ id: randomUUID(), ip_address: req.ip, user_agent: typeof ua === 'string' ? ua : '', location: '' }];
  await q.query(
    `INSERT INTO sessions (nid, id, token_hash, logout_token_hash, identity_id, aal, authentication_methods, devices,
                           authenticated_at, issued_at, expires_at)
     VALUES ('${CONSOLE_NID}', $1, $2, $3, $4, 'aal1', $5, $6, $7, $7, $8)`,
    [
      session.id,
      hashToken(session.token),
      hashToken(logoutTokenFor(session.token)),
      identityId,
      JSON.stringify(methods),
      JSON.stringify(devices),
      now,
      session.expiresAt,
    ],
  );
  return session;
}

export function setSessionCookie(reply: FastifyReply, session: IssuedSession, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, session.token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    expires: session.expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

/** A session in Ory's wire format, with its identity. */
export async function sessionJson(q: Queryable, sessionId: string, base: string): Promise<Record<string, unknown> | null> {
  const [row] = await q.query<Omit<SessionRow, 'traits'>>('SELECT * FROM sessions WHERE id = $1', [sessionId]);
  if (!row) return null;
  return sessionRowJson(q, row, base);
}

export async function sessionRowJson(
  q: Queryable,
  row: Omit<SessionRow, 'traits'>,
  base: string,
): Promise<Record<string, unknown>> {
  return {
    id: row.id,
    active: true,
    expires_at: new Date(row.expires_at).toISOString(),
    authenticated_at: new Date(row.authenticated_at).toISOString(),
    authenticator_assurance_level: row.aal,
    authentication_methods: row.authentication_methods,
    issued_at: new Date(row.issued_at).toISOString(),
    identity: await identityJson(q, row.identity_id, base),
    devices: row.devices,
  };
}

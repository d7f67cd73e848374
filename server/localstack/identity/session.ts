import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/types';

/** The caller as the control plane needs it. */
export interface SessionInfo {
  sessionId: string;
  identityId: string;
  email: string;
  name: string;
}

export const SESSION_COOKIE = 'ory_kratos_session';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The session's logout token: derived from the (secret) session token, stored only hashed. */
export const logoutTokenFor = (sessionToken: string) => `ory_lo_${hashToken(`logout:${sessionToken}`).slice(0, 48)}`;

/**
 * The raw session token of a request, looked up as Kratos does: the X-Session-Token header, else the
 * session cookie, else `Authorization: Bearer <token>`.
 */
export function sessionToken(req: FastifyRequest): string | undefined {
  const header = req.headers['x-session-token'];
  if (typeof header === 'string' && header !== '') return header;
  const cookie = req.cookies?.[SESSION_COOKIE];
  if (cookie) return cookie;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return bearer?.[1];
}

export interface SessionRow {
  id: string;
  identity_id: string;
  aal: string;
  authentication_methods: unknown[];
  devices: unknown[];
  authenticated_at: Date;
  issued_at: Date;
  expires_at: Date;
  traits: { email?: string; name?: string };
}

/** The active, unexpired session a token belongs to (its identity active too), or null. */
export async function findSession(q: Queryable, token: string | undefined): Promise<SessionRow | null> {
  if (!token || token.length > 512) return null;
  const [row] = await q.query<SessionRow>(
    `SELECT s.id, s.identity_id, s.aal, s.authentication_methods, s.devices, s.authenticated_at, s.issued_at,
            s.expires_at, i.traits
       FROM sessions s JOIN identities i ON i.id = s.identity_id
      WHERE s.token_hash = $1 AND s.active AND s.expires_at > now() AND i.state = 'active'`,
    [hashToken(token)],
  );
  return row ?? null;
}

/** Resolves the caller's session from `X-Session-Token`, the `ory_kratos_session` cookie or a bearer token. */
export async function resolveSession(db: Queryable, req: FastifyRequest): Promise<SessionInfo | null> {
  const row = await findSession(db, sessionToken(req));
  if (!row) return null;
  return {
    sessionId: row.id,
    identityId: row.identity_id,
    email: row.traits.email ?? '',
    name: row.traits.name ?? '',
  };
}

import { createHash } from 'node:crypto';
import { and, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { prepared } from './prepared';
import type { Queryable } from './queryable';
import { identities, sessions, type SessionRow as StoredSession } from './tables';
import { CONSOLE_NID } from './tenant-id';

/** The caller as the control plane needs it. */
export interface SessionInfo {
  sessionId: string;
  identityId: string;
  email: string;
  name: string;
}

/** The console tenant's session cookie (self-hosted Kratos' name). */
export const SESSION_COOKIE = 'ory_kratos_session';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The session's logout token: derived from the (secret) session token, stored only hashed. */
export const logoutTokenFor = (sessionToken: string) => `ory_lo_${hashToken(`logout:${sessionToken}`).slice(0, 48)}`;

/**
 * The raw session token of a request, looked up as Kratos does: the X-Session-Token header, else the
 * tenant's session cookie (`cookieName`), else `Authorization: Bearer <token>`.
 */
export function sessionToken(req: FastifyRequest, cookieName: string = SESSION_COOKIE): string | undefined {
  const header = req.headers['x-session-token'];
  if (typeof header === 'string' && header !== '') return header;
  const cookie = req.cookies?.[cookieName];
  if (cookie) return cookie;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return bearer?.[1];
}

/** An active session with its identity's traits. */
export type SessionRow = StoredSession & { traits: { email?: string; name?: string } };

/**
 * The active session of tenant `nid` a token belongs to, unexpired at `now` (the stack's clock time), its
 * identity active too; or null.
 */
export async function findSession(q: Queryable, nid: string, token: string | undefined, now: Date): Promise<SessionRow | null> {
  if (!token || token.length > 512) return null;
  const [row] = await q.orm
    .select({ ...getTableColumns(sessions), traits: identities.traits })
    .from(sessions)
    .innerJoin(identities, and(eq(identities.id, sessions.identity_id), eq(identities.nid, nid)))
    .where(
      and(
        eq(sessions.nid, nid),
        eq(sessions.token_hash, hashToken(token)),
        eq(sessions.active, true),
        gt(sessions.expires_at, now),
        eq(identities.state, 'active'),
      ),
    );
  return row ? { ...row, traits: row.traits as SessionRow['traits'] } : null;
}

/** The console caller of a token: only what the control plane needs, on every request (kept prepared). */
const consoleCaller = (q: Queryable) =>
  prepared(q, 'console-caller', (orm) =>
    orm
      .select({
        sessionId: sessions.id,
        identityId: sessions.identity_id,
        email: sql<string | null>`${identities.traits}->>'email'`,
        name: sql<string | null>`${identities.traits}->>'name'`,
      })
      .from(sessions)
      .innerJoin(identities, and(eq(identities.id, sessions.identity_id), eq(identities.nid, CONSOLE_NID)))
      .where(
        and(
          eq(sessions.nid, CONSOLE_NID),
          eq(sessions.token_hash, sql.placeholder('hash')),
          eq(sessions.active, true),
          gt(sessions.expires_at, sql.placeholder('now')),
          eq(identities.state, 'active'),
        ),
      )
      .prepare('console_caller'),
  );

/**
 * Resolves a console user's session from `X-Session-Token`, the `ory_kratos_session` cookie or a bearer
 * token; a session expired by `now` (the stack's clock time) resolves to nobody.
 */
export async function resolveSession(db: Queryable, req: FastifyRequest, now: Date): Promise<SessionInfo | null> {
  const token = sessionToken(req, SESSION_COOKIE);
  if (!token || token.length > 512) return null;
  const [row] = await consoleCaller(db).execute({ hash: hashToken(token), now: now.toISOString() });
  if (!row) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return { sessionId: row.sessionId, identityId: row.identityId, email: text(row.email), name: text(row.name) };
}

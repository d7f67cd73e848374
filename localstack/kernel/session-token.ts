import { createHash } from 'node:crypto';
import { and, eq, getTableColumns, gt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { createAuthorizationCache } from './authz-cache';
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
const consoleCallerQuery = (q: Queryable) =>
  prepared(q, 'console-caller', (orm) =>
    orm
      .select({
        sessionId: sessions.id,
        identityId: sessions.identity_id,
        email: sql<string | null>`${identities.traits}->>'email'`,
        name: sql<string | null>`${identities.traits}->>'name'`,
        expiresAt: sessions.expires_at,
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
 * Console sessions by token hash (authz-cache.ts): every call of the control plane, and every call the console
 * makes to a project's API, looks its caller up first. A revoked, deleted or extended session and a changed
 * console identity make every entry stale (`consoleIdentitiesChanged`); an entry also stops at its session's
 * expiry.
 */
const consoleCallers = createAuthorizationCache<SessionInfo & { expiresAt: number }>(10_000);

/** The console caller whose session the token is, working at `now` (the stack's clock time), or null. */
export async function consoleCaller(q: Queryable, token: string | undefined, now: Date): Promise<SessionInfo | null> {
  if (!token || token.length > 512) return null;
  const hash = hashToken(token);
  const load = async () => {
    const [row] = await consoleCallerQuery(q).execute({ hash, now: now.toISOString() });
    if (!row) return null;
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return { sessionId: row.sessionId, identityId: row.identityId, email: text(row.email), name: text(row.name), expiresAt: new Date(row.expiresAt).getTime() };
  };
  let found = await consoleCallers.get(q, hash, load);
  // Kept from an earlier clock time: the session may have ended since (or been moved on with the clock).
  if (found && found.expiresAt <= now.getTime()) found = await load();
  if (!found) return null;
  return { sessionId: found.sessionId, identityId: found.identityId, email: found.email, name: found.name };
}

/**
 * Resolves a console user's session from `X-Session-Token`, the `ory_kratos_session` cookie or a bearer
 * token; a session expired by `now` (the stack's clock time) resolves to nobody.
 */
export function resolveSession(db: Queryable, req: FastifyRequest, now: Date): Promise<SessionInfo | null> {
  return consoleCaller(db, sessionToken(req, SESSION_COOKIE), now);
}

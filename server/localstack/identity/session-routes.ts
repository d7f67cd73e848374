import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { baseOf, isSecure, type IdentityDeps } from './deps';
import { noActiveSession, OryHttpError } from './errors';
import { checkReturnTo, isJsonRequest, queryParam, seeOther, uiLink } from './http';
import { findSession, logoutTokenFor, sessionToken } from './session';
import { clearSessionCookie, sessionRowJson } from './sessions';

/** whoami, browser logout and the self-service error store. */
export function registerSessionRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const { db, uiUrl } = deps.ctx;

  app.get('/sessions/whoami', async (req, reply) => {
    const row = await findSession(db, sessionToken(req));
    if (!row) throw noActiveSession();
    return reply.header('cache-control', 'private, no-store').send(await sessionRowJson(db, row, baseOf(deps, req)));
  });

  app.get('/self-service/logout/browser', async (req, reply) => {
    const returnTo = checkReturnTo(queryParam(req, 'return_to'), uiUrl);
    const token = sessionToken(req);
    const row = await findSession(db, token);
    if (!row || !token) throw noActiveSession();
    const logoutToken = logoutTokenFor(token);
    const url = new URL(`${baseOf(deps, req)}/self-service/logout`);
    url.searchParams.set('token', logoutToken);
    if (returnTo) url.searchParams.set('return_to', returnTo);
    return { logout_url: url.toString(), logout_token: logoutToken };
  });

  // As Kratos: the logout token must belong to the session the request carries (cookie or token),
  // so a leaked logout URL alone cannot end someone's session.
  app.get('/self-service/logout', async (req, reply) => {
    const token = queryParam(req, 'token') ?? '';
    if (!token) throw new OryHttpError(400, { reason: 'Please include a token in the URL query.' });
    const returnTo = checkReturnTo(queryParam(req, 'return_to'), uiUrl);
    const sessionTok = sessionToken(req);
    const session = await findSession(db, sessionTok);
    if (!session || !sessionTok) throw noActiveSession();
    const expected = Buffer.from(logoutTokenFor(sessionTok));
    const given = Buffer.from(token);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new OryHttpError(403, {
        reason: 'Unable to log out because the logout token in the URL query does not match the session cookie.',
      });
    }
    await db.query('DELETE FROM sessions WHERE id = $1', [session.id]);
    clearSessionCookie(reply, isSecure(deps, req));
    if (isJsonRequest(req)) return reply.code(204).send();
    return seeOther(reply, returnTo ?? uiLink(uiUrl, '/login'));
  });

  app.get('/self-service/errors', async (req) => {
    const id = queryParam(req, 'id') ?? '';
    const rows = /^[0-9a-f-]{36}$/i.test(id)
      ? await db.query<{ id: string; error: unknown; created_at: Date }>('SELECT * FROM selfservice_errors WHERE id = $1', [id])
      : [];
    const row = rows[0];
    if (!row) throw new OryHttpError(404, { reason: 'The requested error could not be found.' });
    const at = new Date(row.created_at).toISOString();
    return { id: row.id, error: row.error, created_at: at, updated_at: at };
  });
}

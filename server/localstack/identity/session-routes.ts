import { timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { baseOf, isSecure, type IdentityDeps } from './deps';
import { noActiveSession, OryHttpError } from './errors';
import { currentSession } from './flow-routes';
import { checkReturnTo, isJsonRequest, queryParam, seeOther, uiLink } from './http';
import { selfserviceErrors, sessions } from './schema';
import { logoutTokenFor, sessionToken } from './session';
import { clearSessionCookie, sessionRowJson } from './sessions';
import { tenantOf } from './tenant';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** whoami, browser logout and the self-service error store, of the request's tenant. */
export function registerSessionRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const { db } = deps.ctx;

  app.get('/sessions/whoami', async (req, reply) => {
    const row = await currentSession(db, tenantOf(req), req);
    if (!row) throw noActiveSession();
    return reply.header('cache-control', 'private, no-store').send(await sessionRowJson(db, row, baseOf(deps, req)));
  });

  app.get('/self-service/logout/browser', async (req) => {
    const tenant = tenantOf(req);
    const returnTo = checkReturnTo(queryParam(req, 'return_to'), tenant.uiUrl);
    const token = sessionToken(req, tenant.sessionCookie);
    const row = await currentSession(db, tenant, req);
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
    const tenant = tenantOf(req);
    const token = queryParam(req, 'token') ?? '';
    if (!token) throw new OryHttpError(400, { reason: 'Please include a token in the URL query.' });
    const returnTo = checkReturnTo(queryParam(req, 'return_to'), tenant.uiUrl);
    const sessionTok = sessionToken(req, tenant.sessionCookie);
    const session = await currentSession(db, tenant, req);
    if (!session || !sessionTok) throw noActiveSession();
    const expected = Buffer.from(logoutTokenFor(sessionTok));
    const given = Buffer.from(token);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new OryHttpError(403, {
        reason: 'Unable to log out because the logout token in the URL query does not match the session cookie.',
      });
    }
    await db.orm.delete(sessions).where(and(eq(sessions.nid, tenant.nid), eq(sessions.id, session.id)));
    clearSessionCookie(reply, tenant, isSecure(deps, req));
    if (isJsonRequest(req)) return reply.code(204).send();
    return seeOther(reply, returnTo ?? uiLink(tenant.uiUrl, '/login'));
  });

  app.get('/self-service/errors', async (req) => {
    const id = queryParam(req, 'id') ?? '';
    const [row] = UUID.test(id)
      ? await db.orm
          .select()
          .from(selfserviceErrors)
          .where(and(eq(selfserviceErrors.nid, tenantOf(req).nid), eq(selfserviceErrors.id, id)))
      : [];
    if (!row) throw new OryHttpError(404, { reason: 'The requested error could not be found.' });
    const at = row.created_at.toISOString();
    return { id: row.id, error: row.error, created_at: at, updated_at: at };
  });
}

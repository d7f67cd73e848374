import { timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { LogoutFlow } from '@ory/client';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { route } from '../kernel/route';
import { baseOf, isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { noActiveSession, OryError } from '../kernel/errors';
import { currentSession } from '../self-service/flow-routes';
import { checkReturnTo, isJsonRequest, queryValue, seeOther, uiLink } from '../kernel/http';
import { selfserviceErrors, sessions } from '../identity/schema';
import { logoutTokenFor, sessionToken } from './token';
import { clearSessionCookie, sessionRowJson } from './service';
import { tenantOf } from '../kernel/tenant';
import { recordEvent } from '../event/record';
import { identitySettings } from '../kernel/identity-settings';
import { aal2Required } from '../self-service/totp';
import { hasSecondFactor } from '../self-service/lookup';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const whoamiQuery = z.looseObject({ tokenize_as: queryValue });
const logoutUrlQuery = z.looseObject({ return_to: queryValue });
const logoutQuery = z.looseObject({ token: queryValue, return_to: queryValue });
/** Kratos answers any id it does not hold, however malformed, with 404: the id is not length-checked here. */
const errorQuery = z.looseObject({
  id: z.unknown().transform((v) => (typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined)),
});

/**
 * whoami, browser logout and the self-service error store, of the request's tenant: public routes of the
 * route helper, each resolving the tenant's session itself (cookie, X-Session-Token or bearer token).
 */
export function registerSessionRoutes(app: FastifyInstance, deps: IdentityDeps): void {
  const { ctx } = deps;
  const { db } = ctx;

  route(app, ctx, {
    method: 'GET',
    url: '/sessions/whoami',
    query: whoamiQuery,
    auth: 'public',
    handler: async ({ req, reply }) => {
      const tenant = tenantOf(req);
      const row = await currentSession(db, tenant, req, ctx.clock.now());
      if (!row) throw noActiveSession();
      // `highest_available`: an aal1 session of an identity with a second factor must prove it first.
      if (row.aal !== 'aal2') {
        const settings = await identitySettings(db, tenant.nid);
        if (settings.whoamiRequiredAal === 'highest_available' && (await hasSecondFactor(db, tenant.nid, row.identity_id, settings))) {
          throw aal2Required(baseOf(deps, req));
        }
      }
      return reply.header('cache-control', 'private, no-store').send(await sessionRowJson(db, row, baseOf(deps, req)));
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/self-service/logout/browser',
    query: logoutUrlQuery,
    auth: 'public',
    handler: async ({ req, query }) => {
      const tenant = tenantOf(req);
      const returnTo = checkReturnTo(query.return_to, tenant.uiUrl);
      const token = sessionToken(req, tenant.sessionCookie);
      const row = await currentSession(db, tenant, req, ctx.clock.now());
      if (!row || !token) throw noActiveSession();
      const logoutToken = logoutTokenFor(token);
      const url = new URL(`${baseOf(deps, req)}/self-service/logout`);
      url.searchParams.set('token', logoutToken);
      if (returnTo) url.searchParams.set('return_to', returnTo);
      return { logout_url: url.toString(), logout_token: logoutToken } satisfies LogoutFlow;
    },
  });

  // As Kratos: the logout token must belong to the session the request carries (cookie or token),
  // so a leaked logout URL alone cannot end someone's session.
  route(app, ctx, {
    method: 'GET',
    url: '/self-service/logout',
    query: logoutQuery,
    auth: 'public',
    handler: async ({ req, reply, query }) => {
      const tenant = tenantOf(req);
      const token = query.token ?? '';
      if (!token) throw new OryError(400, { reason: 'Please include a token in the URL query.' });
      const returnTo = checkReturnTo(query.return_to, tenant.uiUrl);
      const sessionTok = sessionToken(req, tenant.sessionCookie);
      const session = await currentSession(db, tenant, req, ctx.clock.now());
      if (!session || !sessionTok) throw noActiveSession();
      const expected = Buffer.from(logoutTokenFor(sessionTok));
      const given = Buffer.from(token);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        throw new OryError(403, {
          reason: 'Unable to log out because the logout token in the URL query does not match the session cookie.',
        });
      }
      await db.orm.delete(sessions).where(and(eq(sessions.nid, tenant.nid), eq(sessions.id, session.id)));
      await recordEvent(db, ctx.clock, tenant.nid, 'SessionRevoked', { session_id: session.id, identity_id: session.identity_id, reason: 'logout' });
      clearSessionCookie(reply, tenant, isSecure(deps, req));
      if (isJsonRequest(req)) return reply.code(204).send();
      return seeOther(reply, returnTo ?? uiLink(tenant.uiUrl, '/login'));
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/self-service/errors',
    query: errorQuery,
    auth: 'public',
    handler: async ({ req, query }) => {
      const id = query.id ?? '';
      const [row] = UUID.test(id)
        ? await db.orm
            .select()
            .from(selfserviceErrors)
            .where(and(eq(selfserviceErrors.nid, tenantOf(req).nid), eq(selfserviceErrors.id, id)))
        : [];
      if (!row) throw new OryError(404, { reason: 'The requested error could not be found.' });
      const at = row.created_at.toISOString();
      return { id: row.id, error: row.error, created_at: at, updated_at: at };
    },
  });
}

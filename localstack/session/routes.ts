import { timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { LogoutFlow } from '@ory/client';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { consoleIdentitiesChanged } from '../kernel/authz-cache';
import { route } from '../kernel/route';
import { baseOf, isSecure, type IdentityDeps } from '../kernel/identity-deps';
import { noActiveSession, OryError, resourceNotFound } from '../kernel/errors';
import { identitySettings, returnUrlAfter, type IdentitySettings } from '../kernel/identity-settings';
import { checkReturnTo, isJsonRequest, queryValue, seeOther, uiLink } from '../kernel/http';
import { selfserviceErrors, sessions } from '../identity/schema';
import { currentSession, findSession, logoutTokenFor, sessionToken } from './token';
import { aal2Required, clearSessionCookie, sessionRowJson } from './service';
import { countSessions, disableOtherSessions, disableOwnSession, listSessions } from './store';
import { sessionView } from './views';
import { findIdentity } from '../identity/store';
import { identityView } from '../identity/views';
import { goInt, setOffsetPagingHeaders } from '../kernel/paging';
import type { Db, Queryable } from '../db/types';
import type { Tenant } from '../kernel/tenant';
import type { SessionRow } from '../identity/schema';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { tenantOf } from '../kernel/tenant';
import { recordEvent } from '../event/record';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const whoamiQuery = z.looseObject({ tokenize_as: queryValue });
/** listMySessions pages as Kratos' x.ParsePagination: `page` from 0, `per_page` 1–1000 (default 250). */
const mySessionsQuery = z.looseObject({ page: queryValue, per_page: queryValue });
const sessionIdParams = z.object({ id: z.string().max(64) });
const MY_SESSIONS_DEFAULT = 250;
const MY_SESSIONS_MAX = 1000;

/**
 * Whether an identity has a second factor its project offers. Its credentials belong to the self-service
 * strategies (TOTP, security keys, codes, backup codes), which answer it, as Kratos asks each strategy to count
 * them: the composition hands their check to the session routes.
 */
export type SecondFactorCheck = (q: Queryable, nid: string, identityId: string, settings: IdentitySettings) => Promise<boolean>;

/** The request's working session that meets whoami's assurance level; throws Kratos' 401 or 403 otherwise. */
async function satisfyingSession(deps: IdentityDeps, hasSecondFactor: SecondFactorCheck, db: Db, tenant: Tenant, req: FastifyRequest): Promise<SessionRow> {
  const row = await currentSession(db, tenant, req, deps.ctx.clock.now());
  if (!row) throw noActiveSession();
  // `highest_available`: an aal1 session of an identity with a second factor must prove it first.
  if (row.aal !== 'aal2') {
    const settings = await identitySettings(db, tenant.nid);
    if (settings.whoamiRequiredAal === 'highest_available' && (await hasSecondFactor(db, tenant.nid, row.identity_id, settings))) {
      throw aal2Required(baseOf(deps, req));
    }
  }
  return row;
}
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
/**
 * What a browser logout hands over to before the session ends: the URL to send the browser on to (SAML single
 * logout's request to the identity provider, which comes back to `returnTo`), or undefined to go there directly.
 */
export type LogoutHandoff = (req: FastifyRequest, reply: FastifyReply, tenant: Tenant, sessionId: string, returnTo: string) => Promise<string | undefined>;

export function registerSessionRoutes(app: FastifyInstance, deps: IdentityDeps, hasSecondFactor: SecondFactorCheck, logoutHandoff?: LogoutHandoff): void {
  const { ctx } = deps;
  const { db } = ctx;

  route(app, ctx, {
    method: 'GET',
    url: '/sessions/whoami',
    query: whoamiQuery,
    auth: 'public',
    handler: async ({ req, reply }) => {
      const row = await satisfyingSession(deps, hasSecondFactor, db, tenantOf(req), req);
      return reply.header('cache-control', 'private, no-store').send(await sessionRowJson(db, row, baseOf(deps, req)));
    },
  });

  // FrontendApi.listMySessions: the identity's other working sessions, newest first, with identity and devices.
  route(app, ctx, {
    method: 'GET',
    url: '/sessions',
    query: mySessionsQuery,
    auth: 'public',
    handler: async ({ req, reply, query }) => {
      const tenant = tenantOf(req);
      const current = await satisfyingSession(deps, hasSecondFactor, db, tenant, req);
      const now = ctx.clock.now();
      const page = Math.max(goInt(query.page) ?? 0, 0);
      const perPage = Math.min(Math.max(goInt(query.per_page) ?? MY_SESSIONS_DEFAULT, 1), MY_SESSIONS_MAX);
      const filter = { nid: tenant.nid, identityId: current.identity_id, exceptId: current.id, active: true };
      const rows = await listSessions(db, { ...filter, after: null, offset: page * perPage, limit: perPage }, now);
      const total = await countSessions(db, filter, now);
      setOffsetPagingHeaders(req, reply, total, page, perPage, (search, size, offset) => {
        search.set('per_page', String(size));
        search.set('page', String(Math.trunc(offset / size)));
      });
      const owner = await findIdentity(db, tenant.nid, current.identity_id);
      const identity = owner ? identityView(owner, baseOf(deps, req)) : undefined;
      return reply
        .header('cache-control', 'private, no-store')
        .send(rows.slice(0, perPage).map((row) => sessionView(row, { ...(identity ? { identity } : {}), devices: true }, now)));
    },
  });

  // FrontendApi.disableMyOtherSessions: every other session of the identity ends; answers how many.
  route(app, ctx, {
    method: 'DELETE',
    url: '/sessions',
    auth: 'public',
    handler: async ({ req, q }) => {
      const tenant = tenantOf(req);
      const current = await findSession(q, tenant.nid, sessionToken(req, tenant.sessionCookie), ctx.clock.now());
      if (!current) throw new OryError(401, { reason: 'No valid session cookie found.' });
      const count = await disableOtherSessions(q, tenant.nid, current.identity_id, current.id, ctx.clock.now());
      if (count > 0) await recordEvent(q, ctx.clock, tenant.nid, 'SessionRevoked', { identity_id: current.identity_id, reason: 'self_service' });
      return { count };
    },
  });

  // FrontendApi.disableMySession: one other session of the identity; its own current one ends by logout instead.
  route(app, ctx, {
    method: 'DELETE',
    url: '/sessions/:id',
    params: sessionIdParams,
    auth: 'public',
    status: 204,
    handler: async ({ req, params, q }) => {
      const tenant = tenantOf(req);
      const current = await findSession(q, tenant.nid, sessionToken(req, tenant.sessionCookie), ctx.clock.now());
      if (!current) throw new OryError(401, { reason: 'No valid session cookie found.' });
      if (!UUID.test(params.id)) throw new OryError(400, { reason: 'The session id must be a UUID.' });
      if (params.id.toLowerCase() === current.id) {
        throw new OryError(400, { reason: 'You can not revoke the session in use: sign out to end it.' });
      }
      if (!(await disableOwnSession(q, tenant.nid, current.identity_id, params.id))) throw resourceNotFound('session');
      await recordEvent(q, ctx.clock, tenant.nid, 'SessionRevoked', { session_id: params.id, identity_id: current.identity_id, reason: 'self_service' });
    },
  });

  route(app, ctx, {
    method: 'GET',
    url: '/self-service/logout/browser',
    query: logoutUrlQuery,
    auth: 'public',
    handler: async ({ req, query }) => {
      const tenant = tenantOf(req);
      const returnTo = checkReturnTo(query.return_to, tenant.uiUrl, (await identitySettings(db, tenant.nid)).allowedReturnUrls);
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
      const settings = await identitySettings(db, tenant.nid);
      const returnTo = checkReturnTo(query.return_to, tenant.uiUrl, settings.allowedReturnUrls);
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
      const json = isJsonRequest(req);
      // Kratos: the return_to, else `selfservice.flows.logout.after.default_browser_return_url`, else the default.
      const after = returnTo ?? returnUrlAfter(settings, 'logout') ?? uiLink(tenant.uiUrl, '/login');
      // Asked before the session goes, while what it hands over to can still read it.
      const handoff = json ? undefined : await logoutHandoff?.(req, reply, tenant, session.id, after);
      await db.orm.delete(sessions).where(and(eq(sessions.nid, tenant.nid), eq(sessions.id, session.id)));
      consoleIdentitiesChanged(tenant.nid);
      await recordEvent(db, ctx.clock, tenant.nid, 'SessionRevoked', { session_id: session.id, identity_id: session.identity_id, reason: 'logout' });
      clearSessionCookie(reply, tenant, isSecure(deps, req));
      if (json) return reply.code(204).send();
      return seeOther(reply, handoff ?? after);
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

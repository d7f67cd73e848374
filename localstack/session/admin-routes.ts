import type { Identity } from '@ory/client';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Queryable } from '../db/types';
import type { SessionRow } from '../identity/schema';
import { route } from '../kernel/route';
import type { AdminDeps } from '../kernel/admin-context';
import { resourceNotFound } from '../kernel/errors';
import { findIdentity, listIdentities } from '../identity/store';
import { idParams, tenantParams } from '../identity/routes';
import { identityView } from '../identity/views';
import { decodeOffsetToken, decodePageToken, encodeOffsetToken, goInt, pageSizeParam, setLinkHeader, setOffsetPagingHeaders } from '../kernel/paging';
import { recordEvent } from '../event/record';
import { countSessions, deleteIdentitySessions, disableSession, extendSession, findSessionById, isWorking, listSessions } from './store';
import { identitySettings } from '../kernel/identity-settings';
import { sessionView } from './views';
import { sessionAnswer } from '../identity/answers';

const booleanParam = z.enum(['true', 'false'], { error: 'active must be true or false' }).transform((v) => v === 'true');
const expandParam = z
  .union([z.enum(['identity', 'devices']), z.array(z.enum(['identity', 'devices'])).max(2)], {
    error: 'expand must be identity or devices',
  })
  .optional()
  .transform((v) => new Set(v === undefined ? [] : Array.isArray(v) ? v : [v]));

const pageQuery = (max: number) =>
  z.object({ page_size: pageSizeParam(max), page_token: z.string().max(1024).optional(), active: booleanParam.optional() });
const listQuery = pageQuery(1000).extend({ expand: expandParam });
/** An identity's sessions page by offset, as Kratos' migration paginator reads them (page_token/page_size, else page/per_page). */
const identitySessionsQuery = z.object({
  page_size: z.string().max(32).optional(),
  page_token: z.string().max(1024).optional(),
  per_page: z.string().max(32).optional(),
  page: z.string().max(32).optional(),
  active: booleanParam.optional(),
});
const IDENTITY_SESSIONS_DEFAULT = 250;
const IDENTITY_SESSIONS_MAX = 1000;

function offsetPaging(query: z.infer<typeof identitySessionsQuery>): { page: number; perPage: number } {
  const clamp = (n: number) => Math.min(Math.max(n, 1), IDENTITY_SESSIONS_MAX);
  if (query.page_token !== undefined || query.page_size !== undefined) {
    const perPage = clamp(goInt(query.page_size) ?? IDENTITY_SESSIONS_DEFAULT);
    const offset = query.page_token ? decodeOffsetToken(query.page_token) : 0;
    return { page: offset > 0 ? Math.trunc(offset / perPage) : 0, perPage };
  }
  return { page: Math.max(goInt(query.page) ?? 0, 0), perPage: clamp(goInt(query.per_page) ?? IDENTITY_SESSIONS_DEFAULT) };
}
const getQuery = z.object({ expand: expandParam });

/** The identities (wire form) of `rows`, fetched in one go. */
async function identitiesOf(q: Queryable, nid: string, base: string, rows: SessionRow[]): Promise<Map<string, Identity>> {
  const ids = [...new Set(rows.map((r) => r.identity_id))];
  if (ids.length === 0) return new Map();
  const found = await listIdentities(q, { nid, limit: ids.length, ids });
  return new Map(found.map((i) => [i.row.id, identityView(i, base)]));
}

const nextOf = (rows: SessionRow[], pageSize: number) => {
  const last = rows[pageSize - 1];
  return rows.length > pageSize && last ? { id: last.id, createdAt: last.issued_at.toISOString() } : null;
};

/** IdentityApi: sessions of the tenant (list, get, disable, extend) and of one identity (list, delete). */
export function registerSessionRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  const { ctx } = deps;

  route(scope, ctx, {
    method: 'GET',
    url: '/admin/sessions',
    params: tenantParams,
    query: listQuery,
    auth: 'project-key-or-member',
    response: z.array(sessionAnswer),
    handler: async ({ q, query, tenant, req, reply }) => {
      const { base } = tenant;
      const now = ctx.clock.now();
      const rows = await listSessions(
        q,
        {
          nid: tenant.nid,
          after: decodePageToken(query.page_token, true),
          limit: query.page_size,
          ...(query.active !== undefined ? { active: query.active } : {}),
        },
        now,
      );
      const page = rows.slice(0, query.page_size);
      setLinkHeader(req, reply, query.page_size, nextOf(rows, query.page_size));
      const identities = query.expand.has('identity') ? await identitiesOf(q, tenant.nid, base, page) : new Map<string, Identity>();
      return page.map((row) => {
        const identity = identities.get(row.identity_id);
        return sessionView(row, { ...(identity ? { identity } : {}), devices: query.expand.has('devices') }, now);
      });
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/admin/sessions/:id',
    params: idParams,
    query: getQuery,
    auth: 'project-key-or-member',
    response: sessionAnswer,
    handler: async ({ q, params, query, tenant, req }) => {
      const { base } = tenant;
      const row = await findSessionById(q, tenant.nid, params.id);
      if (!row) throw resourceNotFound('session');
      const identity = query.expand.has('identity') ? (await identitiesOf(q, tenant.nid, base, [row])).get(row.identity_id) : undefined;
      return sessionView(row, { ...(identity ? { identity } : {}), devices: query.expand.has('devices') }, ctx.clock.now());
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/admin/sessions/:id',
    params: idParams,
    auth: 'project-key-or-member',
    status: 204,
    handler: async ({ q, params, tenant, req }) => {
      if (!(await disableSession(q, tenant.nid, params.id))) throw resourceNotFound('session');
      await recordEvent(q, ctx.clock, tenant.nid, 'SessionRevoked', { session_id: params.id, reason: 'admin' });
    },
  });

  route(scope, ctx, {
    method: 'PATCH',
    url: '/admin/sessions/:id/extend',
    params: idParams,
    auth: 'project-key-or-member',
    response: sessionAnswer,
    handler: async ({ q, params, tenant, req }) => {
      const { base } = tenant;
      const now = ctx.clock.now();
      // As Kratos: the session gets the project's `session.lifespan` from now, but only once its expiry is within
      // `session.earliest_possible_extend` (default: the lifespan); before that it is answered unchanged.
      const settings = await identitySettings(q, tenant.nid);
      const lifespanMs = settings.sessionLifespanMs ?? deps.sessionLifespanMs;
      const current = await findSessionById(q, tenant.nid, params.id);
      if (!current || !isWorking(current, now)) throw resourceNotFound('session');
      const extendable = current.expires_at.getTime() - (settings.earliestPossibleExtendMs ?? lifespanMs) < now.getTime();
      const row = extendable ? await extendSession(q, tenant.nid, params.id, new Date(now.getTime() + lifespanMs), now) : current;
      if (!row) throw resourceNotFound('session');
      const identity = (await identitiesOf(q, tenant.nid, base, [row])).get(row.identity_id);
      return sessionView(row, { ...(identity ? { identity } : {}), devices: true }, now);
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/admin/identities/:id/sessions',
    params: idParams,
    query: identitySessionsQuery,
    auth: 'project-key-or-member',
    response: z.array(sessionAnswer),
    handler: async ({ q, params, query, tenant, req, reply }) => {
      const { base } = tenant;
      const { page, perPage } = offsetPaging(query);
      const filter = { nid: tenant.nid, identityId: params.id, ...(query.active !== undefined ? { active: query.active } : {}) };
      // Kratos answers an identity it does not know with no sessions.
      const owner = await findIdentity(q, tenant.nid, params.id);
      const now = ctx.clock.now();
      const rows = owner ? await listSessions(q, { ...filter, after: null, offset: page * perPage, limit: perPage }, now) : [];
      const total = owner ? await countSessions(q, filter, now) : 0;
      setOffsetPagingHeaders(req, reply, total, page, perPage, (search, size, offset) => {
        search.set('page_size', String(size));
        search.set('page_token', encodeOffsetToken(offset));
        search.set('per_page', String(size));
        search.set('page', String(Math.trunc(offset / size)));
      });
      const identity = owner ? identityView(owner, base) : undefined;
      return rows.slice(0, perPage).map((row) => sessionView(row, { ...(identity ? { identity } : {}), devices: true }, now));
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/admin/identities/:id/sessions',
    params: idParams,
    auth: 'project-key-or-member',
    status: 204,
    handler: async ({ q, params, tenant, req }) => {
      // Kratos: 404 when there was no session to delete (a missing identity has none).
      if ((await deleteIdentitySessions(q, tenant.nid, params.id)) === 0) throw resourceNotFound('session');
      await recordEvent(q, ctx.clock, tenant.nid, 'SessionRevoked', { identity_id: params.id, reason: 'admin' });
    },
  });
}

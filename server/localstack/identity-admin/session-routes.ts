import type { Identity } from '@ory/client';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Queryable } from '../db/types';
import type { SessionRow } from '../identity/schema';
import { route } from '../route';
import { adminOf, type AdminDeps } from './context';
import { notFound } from './errors';
import { findIdentity, listIdentities } from './identity-store';
import { idParams, tenantParams } from './identity-routes';
import { identityView } from './identity-view';
import { decodePageToken, pageSizeParam, setLinkHeader } from './paging';
import { deleteIdentitySessions, disableSession, extendSession, findSessionById, listSessions } from './session-store';
import { sessionView } from './session-view';

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
const identitySessionsQuery = pageQuery(500);
const getQuery = z.object({ expand: expandParam });

/** The identities (wire form) of `rows`, fetched in one go. */
async function identitiesOf(q: Queryable, nid: string, base: string, rows: SessionRow[]): Promise<Map<string, Identity>> {
  const ids = [...new Set(rows.map((r) => r.identity_id))];
  if (ids.length === 0) return new Map();
  const found = await listIdentities(q, { nid, afterId: null, limit: ids.length, ids });
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
    auth: 'public',
    handler: async ({ q, query, req, reply }) => {
      const { tenant, base } = adminOf(req);
      const rows = await listSessions(q, {
        nid: tenant.nid,
        after: decodePageToken(query.page_token, true),
        limit: query.page_size,
        ...(query.active !== undefined ? { active: query.active } : {}),
      });
      const page = rows.slice(0, query.page_size);
      setLinkHeader(req, reply, query.page_size, nextOf(rows, query.page_size));
      const identities = query.expand.has('identity') ? await identitiesOf(q, tenant.nid, base, page) : new Map<string, Identity>();
      const now = new Date();
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
    auth: 'public',
    handler: async ({ q, params, query, req }) => {
      const { tenant, base } = adminOf(req);
      const row = await findSessionById(q, tenant.nid, params.id);
      if (!row) throw notFound('session');
      const identity = query.expand.has('identity') ? (await identitiesOf(q, tenant.nid, base, [row])).get(row.identity_id) : undefined;
      return sessionView(row, { ...(identity ? { identity } : {}), devices: query.expand.has('devices') });
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/admin/sessions/:id',
    params: idParams,
    auth: 'public',
    status: 204,
    handler: async ({ q, params, req }) => {
      if (!(await disableSession(q, adminOf(req).tenant.nid, params.id))) throw notFound('session');
    },
  });

  route(scope, ctx, {
    method: 'PATCH',
    url: '/admin/sessions/:id/extend',
    params: idParams,
    auth: 'public',
    handler: async ({ q, params, req }) => {
      const { tenant, base } = adminOf(req);
      const row = await extendSession(q, tenant.nid, params.id, new Date(Date.now() + deps.sessionLifespanMs));
      if (!row) throw notFound('session');
      const identity = (await identitiesOf(q, tenant.nid, base, [row])).get(row.identity_id);
      return sessionView(row, { ...(identity ? { identity } : {}), devices: true });
    },
  });

  route(scope, ctx, {
    method: 'GET',
    url: '/admin/identities/:id/sessions',
    params: idParams,
    query: identitySessionsQuery,
    auth: 'public',
    handler: async ({ q, params, query, req, reply }) => {
      const { tenant, base } = adminOf(req);
      const owner = await findIdentity(q, tenant.nid, params.id);
      if (!owner) throw notFound('identity');
      const rows = await listSessions(q, {
        nid: tenant.nid,
        identityId: params.id,
        after: decodePageToken(query.page_token, true),
        limit: query.page_size,
        ...(query.active !== undefined ? { active: query.active } : {}),
      });
      setLinkHeader(req, reply, query.page_size, nextOf(rows, query.page_size));
      const identity = identityView(owner, base);
      const now = new Date();
      return rows.slice(0, query.page_size).map((row) => sessionView(row, { identity, devices: true }, now));
    },
  });

  route(scope, ctx, {
    method: 'DELETE',
    url: '/admin/identities/:id/sessions',
    params: idParams,
    auth: 'public',
    status: 204,
    handler: async ({ q, params, req }) => {
      const { tenant } = adminOf(req);
      if (!(await findIdentity(q, tenant.nid, params.id))) throw notFound('identity');
      await deleteIdentitySessions(q, tenant.nid, params.id);
    },
  });
}

import type { Identity } from '@ory/client';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseQuery, pathId } from '../controlplane/http';
import type { SessionRow } from '../identity/schema';
import { adminRequest, type AdminDeps } from './context';
import { notFound } from './errors';
import { findIdentity, listIdentities } from './identity-store';
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
async function identitiesOf(deps: AdminDeps, nid: string, base: string, rows: SessionRow[]): Promise<Map<string, Identity>> {
  const ids = [...new Set(rows.map((r) => r.identity_id))];
  if (ids.length === 0) return new Map();
  const found = await listIdentities(deps.ctx.db, { nid, afterId: null, limit: ids.length, ids });
  return new Map(found.map((i) => [i.row.id, identityView(i, base)]));
}

/** IdentityApi: sessions of the tenant (list, get, disable, extend) and of one identity (list, delete). */
export function registerSessionRoutes(scope: FastifyInstance, deps: AdminDeps): void {
  scope.get('/admin/sessions', async (req, reply) => {
    const { tenant, base } = await adminRequest(deps, req);
    const query = parseQuery(listQuery, req.query);
    const rows = await listSessions(deps.ctx.db, {
      nid: tenant.nid,
      after: decodePageToken(query.page_token, true),
      limit: query.page_size,
      ...(query.active !== undefined ? { active: query.active } : {}),
    });
    const page = rows.slice(0, query.page_size);
    const last = page.at(-1);
    setLinkHeader(req, reply, query.page_size, rows.length > query.page_size && last ? { id: last.id, createdAt: last.issued_at.toISOString() } : null);
    const identities = query.expand.has('identity') ? await identitiesOf(deps, tenant.nid, base, page) : new Map<string, Identity>();
    const now = new Date();
    return page.map((row) => {
      const identity = identities.get(row.identity_id);
      return sessionView(row, { ...(identity ? { identity } : {}), devices: query.expand.has('devices') }, now);
    });
  });

  scope.get('/admin/sessions/:id', async (req) => {
    const { tenant, base } = await adminRequest(deps, req);
    const id = pathId(req, 'id');
    const query = parseQuery(getQuery, req.query);
    const row = await findSessionById(deps.ctx.db, tenant.nid, id);
    if (!row) throw notFound('session');
    const identity = query.expand.has('identity') ? (await identitiesOf(deps, tenant.nid, base, [row])).get(row.identity_id) : undefined;
    return sessionView(row, { ...(identity ? { identity } : {}), devices: query.expand.has('devices') });
  });

  scope.delete('/admin/sessions/:id', async (req, reply) => {
    const { tenant } = await adminRequest(deps, req);
    if (!(await disableSession(deps.ctx.db, tenant.nid, pathId(req, 'id')))) throw notFound('session');
    return reply.code(204).send();
  });

  scope.patch('/admin/sessions/:id/extend', async (req) => {
    const { tenant, base } = await adminRequest(deps, req);
    const id = pathId(req, 'id');
    const row = await extendSession(deps.ctx.db, tenant.nid, id, new Date(Date.now() + deps.sessionLifespanMs));
    if (!row) throw notFound('session');
    const identity = (await identitiesOf(deps, tenant.nid, base, [row])).get(row.identity_id);
    return sessionView(row, { ...(identity ? { identity } : {}), devices: true });
  });

  scope.get('/admin/identities/:id/sessions', async (req, reply) => {
    const { tenant, base } = await adminRequest(deps, req);
    const identityId = pathId(req, 'id');
    const query = parseQuery(identitySessionsQuery, req.query);
    const owner = await findIdentity(deps.ctx.db, tenant.nid, identityId);
    if (!owner) throw notFound('identity');
    const rows = await listSessions(deps.ctx.db, {
      nid: tenant.nid,
      identityId,
      after: decodePageToken(query.page_token, true),
      limit: query.page_size,
      ...(query.active !== undefined ? { active: query.active } : {}),
    });
    const page = rows.slice(0, query.page_size);
    const last = page.at(-1);
    setLinkHeader(req, reply, query.page_size, rows.length > query.page_size && last ? { id: last.id, createdAt: last.issued_at.toISOString() } : null);
    const identity = identityView(owner, base);
    const now = new Date();
    return page.map((row) => sessionView(row, { identity, devices: true }, now));
  });

  scope.delete('/admin/identities/:id/sessions', async (req, reply) => {
    const { tenant } = await adminRequest(deps, req);
    const identityId = pathId(req, 'id');
    await deps.ctx.db.tx(async (q) => {
      if (!(await findIdentity(q, tenant.nid, identityId))) throw notFound('identity');
      await deleteIdentitySessions(q, tenant.nid, identityId);
    });
    return reply.code(204).send();
  });
}
